/**
 * Spec §7 "Other": one function per call, and the views the content screens read (news, copy-trade
 * leaders, the announcement, the complaint e-mail, the online-service chat), named in the trader's words.
 */
import * as account from '#contract/calls/account';
import * as content from '#contract/calls/content';
import { ErrorCode } from '#contract/errors';
import { localImage } from '~/utils/sanitize-html.server';
import { UpstreamError, type Api } from './api.server';

export const companyStatus = (api: Api) => api.call(content.getCompanyStatus, {});
export const companies = (api: Api, name?: string) => api.call(content.getCompany, { name });
const contactEmail = (api: Api) => api.call(content.contactEmail, {});
const newsList = (api: Api, page = 1) => api.call(content.newsList, { category_id: 1, page });
const newsInfo = (api: Api, id: number) => api.call(content.newsInfo, { id });
const leaders = (api: Api, page = 1) => api.call(content.followList, { page });

/** One page of a list as the screens page it: the rows and whether another page follows. */
interface Page<T> {
  items: T[];
  hasMore: boolean;
}

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

/** The address complaints are written to. */
export async function complaintEmail(api: Api): Promise<string> {
  const { data } = await contactEmail(api);
  return data.email;
}

export interface NewsItem {
  id: number;
  title: string;
  summary: string;
  /** Our web server's address of the picture, or null. */
  logo: string | null;
  /** ISO 8601. */
  publishedAt: string;
}

export async function newsPage(api: Api, page: number): Promise<Page<NewsItem>> {
  const { data, extras } = await newsList(api, page);
  return {
    items: data.map((n) => ({ id: n.id, title: n.title, summary: n.desc, logo: localImage(n.logo), publishedAt: n.created_at })),
    hasMore: page * content.NEWS_PAGE_SIZE < (extras.total ?? 0),
  };
}

/** The article with its HTML as the editor wrote it (the page sanitises it), or null when there is none. */
export async function newsArticle(api: Api, id: number): Promise<(NewsItem & { html: string }) | null> {
  try {
    const { data } = await newsInfo(api, id);
    return {
      id: data.id,
      title: data.title,
      summary: data.desc,
      logo: localImage(data.logo),
      publishedAt: data.created_at,
      html: data.content,
    };
  } catch (error) {
    if (error instanceof UpstreamError && error.code === ErrorCode.NotFound) return null;
    throw error;
  }
}

/** A copy-trade leader (spec §1, §5 "Ranking leader"); rates are percentages, the profit is in USD. */
export interface Leader {
  id: number;
  name: string;
  /** The instrument the leader trades. */
  code: string;
  leverage: number;
  threeWeekReturn: number;
  threeWeekWinRate: number;
  threeWeekProfit: number;
  totalReturn: number;
  totalTrades: number;
  followers: number;
}

export async function leaderPage(api: Api, page: number): Promise<Page<Leader>> {
  const { data, extras } = await leaders(api, page);
  return {
    items: data.map((l) => ({
      id: l.id,
      name: l.user,
      code: l.code,
      leverage: l.multiple,
      threeWeekReturn: l.three_week_rate,
      threeWeekWinRate: l.three_week_win,
      threeWeekProfit: l.three_week_profit,
      totalReturn: l.total_rate,
      totalTrades: l.total_trade_num,
      followers: l.followers,
    })),
    hasMore: page * content.LEADERS_PAGE_SIZE < (extras.total ?? 0),
  };
}

/** The online-service chat: its address (http or https only, else none) and whether the page frames it. */
interface OnlineService {
  link: string | null;
  /** The origin the page frames, or null when the chat opens in a new tab. */
  frameOrigin: string | null;
}

export async function onlineService(api: Api): Promise<OnlineService> {
  const { data } = await api.call(account.getBasicInfo, {});
  let link: URL | null;
  try {
    link = new URL(data.service_link);
  } catch {
    link = null;
  }
  if (!link || (link.protocol !== 'https:' && link.protocol !== 'http:')) return { link: null, frameOrigin: null };
  // Spec §5 "App base settings": type 1 embeds the chat, anything else opens it.
  return { link: link.href, frameOrigin: data.service_link_type === 1 ? link.origin : null };
}
