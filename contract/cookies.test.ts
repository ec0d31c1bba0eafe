import { expect, test } from 'vitest';
import { cookieValue } from './cookies';

test('reads one cookie among others, trimmed; absent is null, an empty value is not', () => {
  expect(cookieValue('lng=ar; __Host-sid=s%3Aabc; x=1', '__Host-sid')).toBe('s%3Aabc');
  expect(cookieValue('lng=ar;__Host-low-data= 1 ', '__Host-low-data')).toBe('1');
  expect(cookieValue('lng=', 'lng')).toBe('');
  expect(cookieValue('xlng=en; lng2=fr', 'lng')).toBeNull();
  expect(cookieValue('=en; lng', 'lng')).toBeNull();
  expect(cookieValue(null, 'lng')).toBeNull();
  expect(cookieValue(undefined, 'lng')).toBeNull();
});
