/** Spec §7 "Other": one function per call. */
import * as content from '#contract/calls/content';
import type { Api } from './api.server';

export const companyStatus = (api: Api) => api.call(content.getCompanyStatus, {});
export const companies = (api: Api, name?: string) => api.call(content.getCompany, { name });
export const contactEmail = (api: Api) => api.call(content.contactEmail, {});
export const newsList = (api: Api, page = 1) => api.call(content.newsList, { category_id: 1, page });
export const newsInfo = (api: Api, id: number) => api.call(content.newsInfo, { id });
export const leaders = (api: Api, page = 1) => api.call(content.followList, { page });

/** The announcement (spec §1): title, paragraphs, and the countries the service is not offered to, in the user's language. */
export async function announcementOf(api: Api): Promise<{ title: string; paragraphs: string[]; blockedCountries: string[] }> {
  const { data } = await api.call(content.announcement, {});
  return {
    title: data.title,
    paragraphs: data.content
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean),
    blockedCountries: data.blocked_countries,
  };
}
