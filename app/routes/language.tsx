/**
 * /language: the language picker. Choosing is a GET form (`?lng=`), so it works without JavaScript; the
 * choice is kept in a cookie for three years and the user goes back to where they were.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { LanguageFlag } from '~/components/language-flag';
import { PageHeader } from '~/components/page-header';
import { LANGUAGE_TAGS, LANGUAGES, normaliseLanguage } from '#contract/languages';
import { LANGUAGE_NAMES } from '~/i18n/language-names';
import { getLanguage, languageCookie } from '~/i18n/i18next.server';
import { safeRedirectPath } from '~/utils/safe-redirect';
import { namedPageTitle } from '~/utils/page-title';

export const meta: MetaFunction = (args) => namedPageTitle(args, 'language');

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const chosen = url.searchParams.get('lng');
  if (chosen) {
    const lng = normaliseLanguage(chosen);
    return redirect(safeRedirectPath(url.searchParams.get('redirectTo'), '/language'), {
      headers: { 'Set-Cookie': await languageCookie.serialize(lng) },
    });
  }
  return { lang: await getLanguage(request) };
}

export default function LanguagePage() {
  const { lang } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main className="page">
      <PageHeader title={t('language.title')} back="/mine" />
      <Form method="get" reloadDocument className="language-list">
        {LANGUAGES.map((code) => (
          <button
            key={code}
            type="submit"
            name="lng"
            value={code}
            aria-pressed={code === lang}
            lang={LANGUAGE_TAGS[code]}
            className="list-button"
          >
            <LanguageFlag lang={code} />
            <span>{LANGUAGE_NAMES[code]}</span>
            {code === lang ? (
              <span className="check" aria-hidden="true">
                ✓
              </span>
            ) : null}
          </button>
        ))}
      </Form>
    </main>
  );
}
