/** /mine/email, the complaint e-mail (spec §2): the contact address to write to or copy. */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '~/components/copy-field';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { contactEmail } from '~/upstream/content.server';
import styles from '~/styles/funds.css?url';

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const { data } = await contactEmail(api);
    return { title: t('entries.email'), email: data.email };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function ComplaintEmailPage() {
  const { email } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  return (
    <main className="page funds-page">
      <PageHeader title={t('entries.email')} back="/mine" />
      <section className="funds-card">
        <p>{t('email.lead')}</p>
        <CopyField label={t('email.address')} value={email} />
        <a className="button block" href={`mailto:${email}`}>
          {t('email.write')}
        </a>
      </section>
    </main>
  );
}
