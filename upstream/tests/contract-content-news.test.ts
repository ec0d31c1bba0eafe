/** Contract tests of news (list and detail in the request's language, English fallback), copy-trade leaders, the announcement and the anti-loss check. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { content } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk, extrasOf } from './contract-helpers';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
});
afterAll(() => up.close());

describe('news', () => {
  test('list: newest first in the request language, English where an article has no translation', async () => {
    const en = await up.call(content.newsList, { category_id: 1, page: 1 }, { lang: 'en' });
    const list = expectOk(content.newsList, en);
    expect(list.map((n) => n.id)).toEqual([1, 2, 3, 4]);
    expect(extrasOf(content.newsList, en).total).toBe(4);
    expect(list[0]).toMatchObject({ title: 'Euro steadies as traders weigh the central bank outlook', logo: '/static/logos/eurusd.svg' });
    const hk = expectOk(content.newsList, await up.call(content.newsList, { page: 1 }, { lang: 'hk' }));
    expect(hk[0]!.title).toBe('歐元企穩，交易者評估央行前景');
    expect(hk[3]!.title).toBe('Yen slips to a three-week low');
    expect(expectOk(content.newsList, await up.call(content.newsList, { page: 2 }))).toEqual([]);
  });

  test('info: the HTML content as written (the web sanitises it); an unknown or removed id is NotFound', async () => {
    const article = expectOk(content.newsInfo, await up.call(content.newsInfo, { id: 2 }, { lang: 'en' }));
    expect(article.content).toContain('<script>');
    expect(article.content).toContain('onerror=');
    expectError(await up.call(content.newsInfo, { id: 999 }), 'NotFound');
    expectError(await up.call(content.newsInfo, { id: 0 }), 'InvalidRequest');
  });

  test('the back office publishes, translates and removes an article', async () => {
    const added = await up.admin('POST', '/admin/news', { lang: 'en', title: 'Fresh', summary: 's', content: '<p>x</p>' });
    const id = (added.json as { id: number }).id;
    await up.admin('POST', '/admin/news', { id, lang: 'de', title: 'Frisch', content: '<p>y</p>' });
    expect(expectOk(content.newsList, await up.call(content.newsList, { page: 1 }, { lang: 'de' }))[0]).toMatchObject({
      id,
      title: 'Frisch',
    });
    expect((await up.admin('POST', '/admin/news/remove', { id })).status).toBe(200);
    expectError(await up.call(content.newsInfo, { id }), 'NotFound');
    expect((await up.admin('POST', '/admin/news/remove', { id })).status).toBe(404);
  });
});

describe('follow/list', () => {
  test('24 seeded leaders by three-week return, pages of 20, the same under the same seed', async () => {
    const page1 = await up.call(content.followList, { page: 1 });
    const leaders = expectOk(content.followList, page1);
    expect(leaders).toHaveLength(20);
    expect(extrasOf(content.followList, page1).total).toBe(24);
    const rates = leaders.map((l) => l.three_week_rate);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    expect(leaders[0]!.three_week_win).toBeGreaterThanOrEqual(40);
    expect(expectOk(content.followList, await up.call(content.followList, { page: 2 }))).toHaveLength(4);
    const again = await startTestUpstream();
    try {
      expect(expectOk(content.followList, await again.call(content.followList, { page: 1 }))).toEqual(leaders);
    } finally {
      await again.close();
    }
  });
});

describe('announcement', () => {
  test('names the five countries the service is not offered to, in the request language', async () => {
    const en = expectOk(content.announcement, await up.call(content.announcement, {}, { lang: 'en' }));
    expect(en.blocked_countries).toEqual(['North Korea', 'Israel', 'China', 'Vanuatu', 'Cuba']);
    expect(en.content).toContain('North Korea, Israel, China, Vanuatu, and Cuba');
    const hk = expectOk(content.announcement, await up.call(content.announcement, {}, { lang: 'hk' }));
    expect(hk.blocked_countries).toContain('北韓');
    const ar = expectOk(content.announcement, await up.call(content.announcement, {}, { lang: 'ar' }));
    expect(ar.blocked_countries[4]).toBe('كوبا');
    for (const c of ar.blocked_countries) expect(ar.content).toContain(c);
  });
});

describe('loss_check', () => {
  test('off by default; on with a URL it tells the browser where to go; on without a URL stays off', async () => {
    expect(expectOk(content.lossCheck, await up.call(content.lossCheck))).toEqual({ status: 0, loss_url: '' });
    await up.admin('POST', '/admin/setting', { key: 'loss_status', value: '1' });
    expect(expectOk(content.lossCheck, await up.call(content.lossCheck))).toEqual({ status: 0, loss_url: '' });
    await up.admin('POST', '/admin/setting', { key: 'loss_url', value: 'https://example.com/notice' });
    expect(expectOk(content.lossCheck, await up.call(content.lossCheck))).toEqual({ status: 1, loss_url: 'https://example.com/notice' });
    await up.admin('POST', '/admin/setting', { key: 'loss_status', value: '0' });
  });
});
