/**
 * /mine/chat, online service (spec §2, §3): the `service_link` of the base settings, embedded when
 * `service_link_type` is 1 (the page's CSP then allows framing that origin, and only on this page),
 * otherwise opened in a new tab. A link to open it is always there.
 */
import { data, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { basicInfo } from '~/upstream/account.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import styles from '~/styles/funds.css?url';

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }] : []);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }];

/** Read by the web server to add `frame-src <origin>` to this page's CSP (server/security.ts). */
const FRAME_SOURCE_HEADER = 'x-csp-frame-src';

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await upstreamApi(request, context);
  const { t } = await translator(request, 'mine');
  try {
    const { data: info } = await basicInfo(api);
    let link: URL | null = null;
    try {
      link = new URL(info.service_link);
    } catch {
      link = null;
    }
    const safe = link && (link.protocol === 'https:' || link.protocol === 'http:') ? link : null;
    const embed = safe !== null && info.service_link_type === 1;
    return data(
      { title: t('entries.chat'), link: safe?.href ?? null, embed },
      { headers: embed && safe ? { [FRAME_SOURCE_HEADER]: safe.origin } : {} },
    );
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function OnlineServicePage() {
  const { link, embed } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  return (
    <main className="page funds-page chat-page">
      <PageHeader title={t('entries.chat')} back="/mine" />
      {link ? (
        <>
          {embed ? (
            <iframe
              className="chat-frame"
              src={link}
              title={t('entries.chat')}
              referrerPolicy="no-referrer"
              sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
            />
          ) : null}
          <p className="funds-card-actions">
            <a className="button block" href={link} target="_blank" rel="noopener noreferrer">
              {t('chat.open')}
            </a>
          </p>
        </>
      ) : (
        <p className="empty">{t('chat.unavailable')}</p>
      )}
    </main>
  );
}
