/** Spec §7 "Identity" and "Other": real-name checks, news, copy-trade leaders, the announcement, the anti-loss check, invitations. */
import type { FastifyInstance } from 'fastify';
import * as account from '../../contract/calls/account';
import * as content from '../../contract/calls/content';
import * as identity from '../../contract/calls/identity';
import type { Language } from '../../contract/enums';
import { LANGUAGE_TAGS } from '../../contract/languages';
import { fail } from '../shared/errors';
import type { Upstream } from '../upstream';
import { translateWith } from './i18n';
import { register } from './route';
import { isoTime, moneyNumber } from './views';

/** Spec §1: the announcement names these (ISO 3166 codes; names come from the language's own Intl data). */
export const BLOCKED_COUNTRIES = ['KP', 'IL', 'CN', 'VU', 'CU'] as const;

function countryNames(lang: Language): string[] {
  const names = new Intl.DisplayNames([LANGUAGE_TAGS[lang]], { type: 'region' });
  return BLOCKED_COUNTRIES.map((c) => names.of(c) ?? c);
}

interface NewsRow {
  id: number;
  logo: string;
  created_at: number;
  title: string;
  summary: string;
  content: string;
}

export function registerContentRoutes(app: FastifyInstance, up: Upstream): void {
  // ---- identity ----
  register(app, up, identity.realName, ({ input, user }) => {
    up.identity.submit(user, input);
    return null;
  });
  register(app, up, identity.realNameCenter, ({ user }) => up.identity.center(user.id));

  // ---- invitations ----
  register(app, up, account.inviteInfo, ({ user }) => ({
    invite_code: user.invite_code,
    invited: (up.db.prepare('SELECT COUNT(*) AS n FROM users WHERE inviter_id = ?').get(user.id) as { n: number }).n,
  }));

  // ---- news: the request's language, else English ----
  const newsQuery = `SELECT n.id, n.logo, n.created_at, t.title, t.summary, t.content FROM news n
    JOIN news_texts t ON t.news_id = n.id AND t.lang = COALESCE(
      (SELECT lang FROM news_texts WHERE news_id = n.id AND lang = ?), 'en')
    WHERE n.removed_at IS NULL AND n.category_id = ?`;
  const newsItem = (n: NewsRow) => ({ id: n.id, title: n.title, desc: n.summary, logo: n.logo, created_at: isoTime(n.created_at) });
  register(app, up, content.newsList, ({ input, lang }) => {
    const rows = up.db
      .prepare(`${newsQuery} ORDER BY n.created_at DESC, n.id DESC LIMIT ? OFFSET ?`)
      .all(lang, input.category_id, content.NEWS_PAGE_SIZE, (input.page - 1) * content.NEWS_PAGE_SIZE) as NewsRow[];
    const total = (
      up.db
        .prepare(
          'SELECT COUNT(*) AS n FROM news n WHERE n.removed_at IS NULL AND n.category_id = ? AND EXISTS (SELECT 1 FROM news_texts WHERE news_id = n.id)',
        )
        .get(input.category_id) as { n: number }
    ).n;
    return { data: rows.map(newsItem), extras: { total } };
  });
  register(app, up, content.newsInfo, ({ input, lang }) => {
    const row = up.db.prepare(`${newsQuery.replace('AND n.category_id = ?', '')} AND n.id = ?`).get(lang, input.id) as NewsRow | undefined;
    if (!row) fail('NotFound');
    return { ...newsItem(row), content: row.content };
  });

  // ---- copy-trade leaders (spec §1: following is "coming soon") ----
  register(app, up, content.followList, ({ input }) => {
    const rows = up.db
      .prepare('SELECT * FROM leaders ORDER BY sort LIMIT ? OFFSET ?')
      .all(content.LEADERS_PAGE_SIZE, (input.page - 1) * content.LEADERS_PAGE_SIZE) as {
      id: number;
      name: string;
      code: string;
      multiple: number;
      three_week_rate: number;
      three_week_win: number;
      three_week_profit: number;
      total_rate: number;
      total_trade_num: number;
      followers: number;
    }[];
    const total = (up.db.prepare('SELECT COUNT(*) AS n FROM leaders').get() as { n: number }).n;
    return {
      data: rows.map((l) => ({
        id: l.id,
        user: l.name,
        avatar: '',
        multiple: l.multiple,
        three_week_rate: l.three_week_rate / 100,
        three_week_win: l.three_week_win / 100,
        three_week_profit: moneyNumber(l.three_week_profit),
        total_rate: l.total_rate / 100,
        total_trade_num: l.total_trade_num,
        followers: l.followers,
        code: l.code,
      })),
      extras: { total },
    };
  });

  // ---- the announcement and the anti-loss check ----
  register(app, up, content.announcement, ({ lang }) => {
    const countries = countryNames(lang);
    const list = new Intl.ListFormat([LANGUAGE_TAGS[lang]], { type: 'conjunction' }).format(countries);
    return {
      title: translateWith(lang, 'announcement.title'),
      content: translateWith(lang, 'announcement.content', { countries: list }),
      blocked_countries: countries,
    };
  });
  register(app, up, content.lossCheck, () => {
    const url = up.setting('loss_url');
    const status = Number(up.setting('loss_status')) || 0;
    // A switched-on check with nowhere to go is off: a redirect to '' would loop.
    return { status: url ? status : 0, loss_url: url };
  });
}
