import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18nProvider, useTranslation } from './react';

async function instance(lng: string, strings: Record<string, string>) {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { [lng]: { common: strings } }, defaultNS: 'common', interpolation: { escapeValue: false } });
  return i18n;
}

function Labels() {
  const { t } = useTranslation('common');
  return (
    <p>
      {t('buy')}|{t('buy')}|{t('lots', { count: 2 })}|{t('lots', { count: 1 })}|{t('hello', { name: 'Ann' })}|{t('hello', { name: 'Bo' })}|
      {t('missing', 'fallback')}
    </p>
  );
}

describe('useTranslation', () => {
  it('gives each plain key its text and still interpolates and counts when options are given', async () => {
    const i18n = await instance('en', { buy: 'Buy', lots_one: '{{count}} lot', lots_other: '{{count}} lots', hello: 'Hi {{name}}' });
    const html = renderToStaticMarkup(
      <I18nProvider i18n={i18n}>
        <Labels />
      </I18nProvider>,
    );
    expect(html).toBe('<p>Buy|Buy|2 lots|1 lot|Hi Ann|Hi Bo|fallback</p>');
  });

  it('keeps the texts of two instances (two languages on one server) apart', async () => {
    const [en, de] = await Promise.all([instance('en', { buy: 'Buy' }), instance('de', { buy: 'Kaufen' })]);
    const render = (i18n: typeof en) =>
      renderToStaticMarkup(
        <I18nProvider i18n={i18n}>
          <Labels />
        </I18nProvider>,
      ).split('|')[0];
    expect([render(en), render(de), render(en)]).toEqual(['<p>Buy', '<p>Kaufen', '<p>Buy']);
  });
});
