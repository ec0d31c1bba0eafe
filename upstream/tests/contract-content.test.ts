/**
 * Contract tests of the public settings and content calls: area_list, setting, getBasicInfo,
 * getCompanyStatus and contactEmail. These take no token and (apart from `setting`'s key) no input, so
 * their error side is limited to request validation; each also follows the back office's settings.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { account, content, market } from '../../contract/index';
import { startTestUpstream, type TestUpstream } from '../testing';
import { expectError, expectOk } from './contract-helpers';

let up: TestUpstream;
beforeAll(async () => {
  up = await startTestUpstream();
});
afterAll(() => up.close());

async function setSetting(key: string, value: string) {
  const res = await up.admin('POST', '/admin/setting', { key, value });
  expect(res.status).toBe(200);
}

test('every call of this file is served and public', () => {
  for (const call of [account.areaList, account.setting, account.getBasicInfo, content.getCompanyStatus, content.contactEmail]) {
    expect(up.app.hasRoute({ method: call.method, url: call.path }), call.name).toBe(true);
    expect(call.auth).toBe('none');
  }
});

describe('area_list', () => {
  test('lists the area codes with unique ids, dialling codes and regions', async () => {
    const areas = expectOk(account.areaList, await up.call(account.areaList));
    expect(areas.length).toBeGreaterThanOrEqual(20);
    expect(areas[0]).toEqual({ id: 1, code: '852', global_code: 'HK' });
    expect(new Set(areas.map((a) => a.id)).size).toBe(areas.length);
    for (const a of areas) {
      expect(a.code).toMatch(/^\d{1,4}$/);
      expect(a.global_code).toMatch(/^[A-Z]{2}$/);
    }
    expect(areas.map((a) => a.global_code)).toEqual(expect.arrayContaining(['GB', 'US', 'JP', 'FR']));
  });

  test('a token is not needed, and a bad one does not matter', async () => {
    const env = await up.call(account.areaList, {}, { token: 'bad-token' });
    expectOk(account.areaList, env);
  });
});

describe('setting', () => {
  test('is_show_mobile is 0 by default and follows the back office (1, 3)', async () => {
    expect(expectOk(account.setting, await up.call(account.setting, { key: 'is_show_mobile' }))).toEqual({
      key: 'is_show_mobile',
      value: 0,
    });
    await setSetting('is_show_mobile', '1');
    expect(expectOk(account.setting, await up.call(account.setting, { key: 'is_show_mobile' }))).toEqual({
      key: 'is_show_mobile',
      value: 1,
    });
    await setSetting('is_show_mobile', '3');
    expect(expectOk(account.setting, await up.call(account.setting, { key: 'is_show_mobile' }))).toEqual({
      key: 'is_show_mobile',
      value: 3,
    });
    await setSetting('is_show_mobile', '0');
  });

  test('an unknown or missing key is an invalid request (other settings are not readable)', async () => {
    expectError(await up.call(account.setting, { key: 'demo_balance' }), 'InvalidRequest');
    expectError(await up.call(account.setting, {}), 'InvalidRequest');
  });
});

describe('getBasicInfo', () => {
  test('answers the seeded base settings: per-lot fees and code registration by default', async () => {
    const info = expectOk(account.getBasicInfo, await up.call(account.getBasicInfo));
    expect(info).toEqual({
      service_link: 'https://support.example.com/chat',
      service_link_type: 1,
      verify_reg_type: 1,
      trade_fee_type: 1,
      contact_email: 'support@example.com',
    });
  });

  test('follows the back office (captcha registration, another service link)', async () => {
    await setSetting('verify_reg_type', '2');
    await setSetting('service_link', 'https://chat.example.org/room');
    try {
      const info = expectOk(account.getBasicInfo, await up.call(account.getBasicInfo));
      expect(info).toMatchObject({ verify_reg_type: 2, service_link: 'https://chat.example.org/room' });
    } finally {
      await setSetting('verify_reg_type', '1');
      await setSetting('service_link', 'https://support.example.com/chat');
    }
  });

  test('ignores unknown query fields (there is no error path)', async () => {
    expectOk(account.getBasicInfo, await up.call(account.getBasicInfo, { foo: 'bar' }));
  });
});

describe('getCompanyStatus', () => {
  test('is 1 (service providers) by default and 0 when switched off', async () => {
    expect(expectOk(content.getCompanyStatus, await up.call(content.getCompanyStatus))).toEqual({ status: 1 });
    await setSetting('company_status', '0');
    try {
      expect(expectOk(content.getCompanyStatus, await up.call(content.getCompanyStatus))).toEqual({ status: 0 });
    } finally {
      await setSetting('company_status', '1');
    }
  });
});

describe('contactEmail', () => {
  test('answers the contact e-mail, the same as getBasicInfo, and follows the back office', async () => {
    expect(expectOk(content.contactEmail, await up.call(content.contactEmail))).toEqual({ email: 'support@example.com' });
    await setSetting('contact_email', 'help@example.org');
    try {
      expect(expectOk(content.contactEmail, await up.call(content.contactEmail))).toEqual({ email: 'help@example.org' });
      expect(expectOk(account.getBasicInfo, await up.call(account.getBasicInfo)).contact_email).toBe('help@example.org');
    } finally {
      await setSetting('contact_email', 'support@example.com');
    }
  });
});

describe('getCompany', () => {
  test('lists the service providers, and searches them by name', async () => {
    const all = await up.call(content.getCompany, {});
    const list = expectOk(content.getCompany, all);
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list[0]).toMatchObject({ name: 'Harbour Prime Markets Ltd', email: 'service@harbourprime.example.com' });
    const found = expectOk(content.getCompany, await up.call(content.getCompany, { name: 'meridian' }));
    expect(found.map((c) => c.name)).toEqual(['Meridian Clearing Services']);
    expect(expectOk(content.getCompany, await up.call(content.getCompany, { name: 'no such firm' }))).toEqual([]);
  });

  test("each provider has its own logo, its initials on a square, never an instrument's badge", async () => {
    const list = expectOk(content.getCompany, await up.call(content.getCompany, {}));
    const instrumentLogos = new Set(expectOk(market.tradeList, await up.call(market.tradeList)).map((i) => i.Logo));
    expect(new Set(list.map((c) => c.logo)).size).toBe(list.length);
    for (const c of list) {
      expect(instrumentLogos.has(c.logo), c.logo).toBe(false);
      const res = await fetch(new URL(c.logo, up.url));
      expect(res.status, c.logo).toBe(200);
      const svg = await res.text();
      expect(svg).toContain(`aria-label="${c.name}"`);
      expect(svg).toMatch(/<rect[^>]* rx=/);
    }
  });
});
