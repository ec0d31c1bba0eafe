/** Spec §7 "Other": one function per call. */
import * as content from '#contract/calls/content';
import { localImage } from '~/utils/sanitize-html.server';
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

export interface NewsItem {
  id: number;
  title: string;
  summary: string;
  /** Our web server's address of the picture, or null. */
  logo: string | null;
  date: string;
}

export async function newsPage(api: Api, page: number): Promise<{ items: NewsItem[]; total: number }> {
  const { data, extras } = await newsList(api, page);
  return {
    items: data.map((n) => ({ id: n.id, title: n.title, summary: n.desc, logo: localImage(n.logo), date: n.created_at })),
    total: extras.total ?? data.length,
  };
}

export async function newsArticle(api: Api, id: number): Promise<NewsItem & { html: string }> {
  const { data } = await newsInfo(api, id);
  return { id: data.id, title: data.title, summary: data.desc, logo: localImage(data.logo), date: data.created_at, html: data.content };
}
