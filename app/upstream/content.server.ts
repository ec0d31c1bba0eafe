/** Spec §7 "Other": one function per call. */
import * as content from '#contract/calls/content';
import type { Api } from './api.server';

export const companyStatus = (api: Api) => api.call(content.getCompanyStatus, {});
export const companies = (api: Api, name?: string) => api.call(content.getCompany, { name });
export const contactEmail = (api: Api) => api.call(content.contactEmail, {});
export const newsList = (api: Api, page = 1) => api.call(content.newsList, { category_id: 1, page });
export const newsInfo = (api: Api, id: number) => api.call(content.newsInfo, { id });
export const leaders = (api: Api, page = 1) => api.call(content.followList, { page });
