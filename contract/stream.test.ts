/** Who asks for low data: the browser's data saver or the switch's cookie, read from raw headers as the hub gets them. */
import { expect, test } from 'vitest';
import { hasLowDataCookie, wantsLowData } from './stream';

test('the low-data cookie counts only under its own name and with the value 1', () => {
  expect(hasLowDataCookie('__Host-low-data=1')).toBe(true);
  expect(hasLowDataCookie('lng=en; __Host-low-data=1; __Host-session=abc')).toBe(true);
  expect(hasLowDataCookie('lng=en;__Host-low-data= 1 ')).toBe(true);
  for (const header of [
    undefined,
    null,
    '',
    '__Host-low-data=',
    '__Host-low-data=0',
    '__Host-low-data=10',
    'x__Host-low-data=1',
    'low_data=1',
  ]) {
    expect(hasLowDataCookie(header), String(header)).toBe(false);
  }
});

test('Save-Data: on (any case) or the cookie asks for low data; other Save-Data values do not', () => {
  expect(wantsLowData('on', undefined)).toBe(true);
  expect(wantsLowData(' On ', undefined)).toBe(true);
  expect(wantsLowData(undefined, '__Host-low-data=1')).toBe(true);
  expect(wantsLowData('off', undefined)).toBe(false);
  expect(wantsLowData('', 'lng=en')).toBe(false);
  expect(wantsLowData(undefined, undefined)).toBe(false);
});
