import { expect, test } from 'vitest';
import { chartTypeCookie, chosenChartType, typeRedirect, windowCursor } from './chart-choice.server';

const at = (query: string) => new URL(`https://lotfx.test/trade?${query}`);
const cookieOf = async (value: string) => (await chartTypeCookie.serialize(value)).split(';')[0]!;

test('the address wins when it names a known type; else the device’s; else candles', async () => {
  const line = await cookieOf('line');
  expect(await chosenChartType(at('code=EURUSD&type=area'), line)).toBe('area');
  expect(await chosenChartType(at('code=EURUSD'), line)).toBe('line');
  expect(await chosenChartType(at('code=EURUSD&type=nonsense'), line)).toBe('line');
  expect(await chosenChartType(at('code=EURUSD&type=nonsense'), null)).toBe('candles');
  expect(await chosenChartType(at('code=EURUSD'), await cookieOf('pie'))).toBe('candles');
});

test('only the type bar’s link keeps the type, and lands on the address without its mark', async () => {
  expect(await typeRedirect(at('code=EURUSD&type=bars'))).toBeNull();
  const kept = (await typeRedirect(at('code=EURUSD&type=bars&keep=type&ind=rsi')))!;
  expect(kept.status).toBe(302);
  expect(kept.headers.get('Location')).toBe('/trade?code=EURUSD&type=bars&ind=rsi');
  expect(await chartTypeCookie.parse(kept.headers.get('Set-Cookie'))).toBe('bars');
  const unknown = (await typeRedirect(at('code=EURUSD&type=pie&keep=type')))!;
  expect(unknown.headers.get('Set-Cookie')).toBeNull();
});

test('a window’s cursor is a whole candle time; anything else is the newest candles', () => {
  expect(windowCursor(at('before=1764000000'))).toBe(1_764_000_000);
  for (const bad of ['', 'before=', 'before=abc', 'before=1.5', 'before=-3', 'before=99999999999999'])
    expect(windowCursor(at(bad)), bad).toBeUndefined();
});
