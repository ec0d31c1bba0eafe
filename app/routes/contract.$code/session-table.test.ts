/** What the session section says for forex on real hours, in English and Chinese (Hong Kong), from the app's own strings. */
import fs from 'node:fs';
import i18next from 'i18next';
import { expect, test } from 'vitest';
import { LANGUAGE_TAGS } from '#contract/languages';
import { sessionTexts } from './session-table';
import { londonZone, nextChange, weekSchedule } from './sessions';

const FOREX = [{ open: 22 * 60, close: 5 * 1440 + 22 * 60 }];
const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;

async function textsIn(lng: 'en' | 'hk', now: number, marketOpen: boolean) {
  const i18n = i18next.createInstance();
  const contract = JSON.parse(fs.readFileSync(`locales/${lng}/contract.json`, 'utf8')) as Record<string, unknown>;
  await i18n.init({ lng, resources: { [lng]: { contract } }, defaultNS: 'contract', interpolation: { escapeValue: false } });
  const session = { days: weekSchedule(FOREX, now), next: nextChange(FOREX, now), zone: londonZone(now) };
  return sessionTexts(session, marketOpen, i18n.getFixedT(lng, 'contract'), LANGUAGE_TAGS[lng]);
}

test('a winter Saturday in English: closed, opens Sunday 22:00 GMT, Friday until 22:00', async () => {
  const texts = await textsIn('en', utc(2026, 11, 28, 12), false);
  expect(texts.zone).toBe('Times are London time, GMT (UTC+0).');
  expect(texts.now).toBe('Closed now.');
  expect(texts.next).toBe('Next open: Nov 29, 22:00 GMT.');
  expect(texts.days.map((d) => `${d.name}: ${d.hours}`)).toEqual([
    'Saturday: Closed',
    'Sunday: From 22:00',
    'Monday: All day',
    'Tuesday: All day',
    'Wednesday: All day',
    'Thursday: All day',
    'Friday: Until 22:00',
  ]);
  expect(texts.days[0]!.today).toBe(true);
});

test('a summer Wednesday in Chinese: open, closes Friday 23:00 BST', async () => {
  const texts = await textsIn('hk', utc(2026, 7, 1, 12), true);
  expect(texts.zone).toBe('時間為倫敦時間，BST（UTC+1）。');
  expect(texts.now).toBe('現正開市。');
  expect(texts.next).toMatch(/^下次收市：.*23:00 BST。$/);
  expect(texts.days[2]).toMatchObject({ name: '星期五', hours: '至 23:00' });
  expect(texts.days[3]).toMatchObject({ name: '星期六', hours: '休市' });
});

test('a market forced closed in its hours says so, and no next close', async () => {
  const texts = await textsIn('en', utc(2026, 11, 25, 12), false);
  expect(texts.now).toBe('Closed now.');
  expect(texts.next).toBeNull();
});
