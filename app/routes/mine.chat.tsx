/**
 * /mine/chat, online service (spec §2, §3): the `service_link` of the base settings, embedded when its
 * type says so (this page's CSP then allows framing that origin, and only this page's), otherwise a
 * button that opens it in a new tab. The link to open it is always there, should the frame stay blank.
 */
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useLoaderData, type ClientLoaderFunctionArgs, type ShouldRevalidateFunction } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { onlineService } from '~/upstream/content.server';
import contentCss from '~/styles/content.css?inline';
import { pageTitle } from '~/utils/page-title';

export const meta: MetaFunction<typeof loader> = (args) => pageTitle(args, args.data?.title);

/** Read, and removed, by the web server, which adds `frame-src <origin>` to this response's CSP (server/security.ts). */
const FRAME_SOURCE_HEADER = 'x-csp-frame-src';

export const headers: HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const headers = new Headers(parentHeaders);
  const frame = loaderHeaders.get(FRAME_SOURCE_HEADER);
  if (frame) headers.set(FRAME_SOURCE_HEADER, frame);
  return headers;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [api, { t }] = await Promise.all([upstreamApi(request, context), translator(request, 'mine')]);
  try {
    const service = await onlineService(api);
    return data(
      { title: t('entries.chat'), ...service },
      { headers: service.frameOrigin ? { [FRAME_SOURCE_HEADER]: service.frameOrigin } : {} },
    );
  } catch (error) {
    return loaderFailure(request, error);
  }
}

/**
 * A document's CSP is the one it was served with: reached by a client-side navigation, this page would
 * live under another page's CSP, which frames nothing. So the browser loads it as a document then.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const page = await serverLoader<typeof loader>();
  if (!page.frameOrigin) return page;
  window.location.assign(request.url);
  return new Promise<never>(() => {});
}

/** Nothing on this page changes by staying on it; a reload would only restart the chat. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

export default function OnlineServicePage() {
  const { link, frameOrigin } = useLoaderData<typeof loader>();
  const { t } = useTranslation(['mine', 'content']);
  return (
    <main className="page content-page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: contentCss }} />
      <PageHeader title={t('entries.chat')} back="/mine" />
      {link ? (
        <>
          {frameOrigin ? (
            <iframe
              className="chat-frame"
              src={link}
              title={t('entries.chat')}
              referrerPolicy="no-referrer"
              sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
            />
          ) : null}
          <p className="content-actions">
            <a className="button block" href={link} target="_blank" rel="noopener noreferrer">
              {t('content:chat.open')}
            </a>
          </p>
        </>
      ) : (
        <p className="empty">{t('content:chat.unavailable')}</p>
      )}
    </main>
  );
}
