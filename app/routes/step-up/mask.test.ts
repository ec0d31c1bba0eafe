import { describe, expect, it } from 'vitest';
import { maskedDestination } from './mask';

describe('maskedDestination', () => {
  it('keeps the first letter and the domain of an e-mail', () => expect(maskedDestination('alice@example.com')).toBe('a***@example.com'));
  it('keeps the last four digits of a phone', () => expect(maskedDestination('5551234567')).toBe('***4567'));
  it('says nothing of nothing', () => expect(maskedDestination(null)).toBe(''));
});
