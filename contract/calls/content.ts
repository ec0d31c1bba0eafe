/** Spec §7 "Other": companies, news, copy-trade leaders, contact e-mail. */
import { z } from 'zod/v4';
import { IntField, OptionalText, PageField, PositiveInt } from '../fields';
import { defineCall } from './define';

export const ProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  logo: z.string(),
  url: z.string(),
  subject: z.string(),
  registered_address: z.string(),
  location: z.string(),
  email: z.string(),
});
export const getCompany = defineCall({
  name: 'getCompany',
  method: 'GET',
  path: '/api/company/getCompany',
  auth: 'none',
  /** `name` searches by name (spec: "company search by name"; its field name is not shown). */
  request: z.object({ name: OptionalText }),
  response: z.array(ProviderSchema),
});
export const getCompanyStatus = defineCall({
  name: 'getCompanyStatus',
  method: 'GET',
  path: '/api/company/getCompanyStatus',
  auth: 'none',
  request: z.object({}),
  /** status 1: the product search shows service providers (the main mode); 0: instruments. */
  response: z.object({ status: z.number().int() }),
});

const NewsSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  desc: z.string(),
  logo: z.string(),
  created_at: z.string(),
  content: z.string(),
});
export const NEWS_PAGE_SIZE = 10;
export const LEADERS_PAGE_SIZE = 20;
export const newsList = defineCall({
  name: 'news/list',
  method: 'GET',
  path: '/api/news/list',
  auth: 'none',
  request: z.object({ category_id: IntField.default(1), page: PageField }),
  response: z.array(NewsSchema.omit({ content: true })),
  extras: { total: z.number().int() },
});
export const newsInfo = defineCall({
  name: 'news/info',
  method: 'GET',
  path: '/api/news/info',
  auth: 'none',
  request: z.object({ id: PositiveInt }),
  response: NewsSchema,
});

const LeaderSchema = z.object({
  id: z.number().int(),
  user: z.string(),
  avatar: z.string(),
  multiple: z.number(),
  three_week_rate: z.number(),
  three_week_win: z.number(),
  three_week_profit: z.number(),
  total_rate: z.number(),
  total_trade_num: z.number().int(),
  followers: z.number().int(),
  code: z.string(),
});
export const followList = defineCall({
  name: 'follow/list',
  method: 'GET',
  path: '/api/follow/list',
  auth: 'none',
  request: z.object({ page: PageField }),
  response: z.array(LeaderSchema),
  extras: { total: z.number().int() },
});

export const contactEmail = defineCall({
  name: 'contactEmail',
  method: 'GET',
  path: '/api/default/contact_email',
  auth: 'none',
  request: z.object({}),
  response: z.object({ email: z.string() }),
});

export const announcement = defineCall({
  name: 'announcement',
  method: 'GET',
  path: '/api/default/announcement',
  auth: 'none',
  request: z.object({}),
  /** `content` is plain text, paragraphs separated by blank lines; the countries are in the request's language. */
  response: z.object({ title: z.string(), content: z.string(), blocked_countries: z.array(z.string()) }),
});

/**
 * The anti-loss check (spec §7 "Other", §8): a non-zero `status` sends the browser to `loss_url`.
 * The spec does not show its path; this is ours.
 */
export const lossCheck = defineCall({
  name: 'loss_check',
  method: 'GET',
  path: '/api/default/loss_check',
  auth: 'none',
  request: z.object({}),
  response: z.object({ status: z.number().int(), loss_url: z.string() }),
});
