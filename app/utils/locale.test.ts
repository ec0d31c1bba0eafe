import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS } from '#contract/languages';
import { DEFAULT_LOCALE } from './locale';

describe('the default locale', () => {
  it('is the default language’s tag (written out so that the page’s script carries no language table)', () => {
    expect(DEFAULT_LOCALE).toBe(LANGUAGE_TAGS[DEFAULT_LANGUAGE]);
  });
});
