/**
 * /mine, the user centre (spec §2): who is signed in, the balance with a hide toggle, and the entries of
 * the account. The toggle is a GET link (`?hide=1`) remembered in a cookie; with JavaScript it flips as
 * soon as it is tapped. "Reset demo account" confirms in the URL (`?confirm=reset-demo`) and posts here.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { Link, useLoaderData, useNavigation, useSearchParams, type ShouldRevalidateFunction } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { failureMessage, UpstreamError, UpstreamUnavailable, upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { securityOffered } from '~/upstream/security.server';
import { balance, resetDemo } from '~/upstream/trade.server';
import { validateCsrf } from '~/utils/csrf.server';
import { formatMoney } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { redirectWithToast, requireSignedIn } from '~/utils/session.server';
import mineCss from '~/styles/mine.css?inline';
import { hideBalanceCookie } from './hide-balance-cookie.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { namedPageTitle } from '~/utils/page-title';

export const meta: MetaFunction = (args) => namedPageTitle(args, 'mine');

const HIDDEN_BALANCE = '******';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const asked = new URL(request.url).searchParams.get('hide');
  const headers = new Headers();
  let hidden: boolean;
  if (asked === '1' || asked === '0') {
    hidden = asked === '1';
    headers.append('Set-Cookie', await hideBalanceCookie.serialize(hidden ? 1 : 0));
  } else {
    hidden = (await hideBalanceCookie.parse(request.headers.get('Cookie'))) === 1;
  }
  const api = await upstreamApi(request, context);
  if (!api.signedIn) return data({ hidden, account: null }, { headers });
  const { user } = api.signedIn;
  // "Security" only for a real account on an upstream that offers it (a broker's backend does not), asked beside the balance.
  const offered = user.isDemo ? Promise.resolve(false) : securityOffered(api).catch(upstreamFallback(false, 'the security calls'));
  // The balance is one figure of the page: when it cannot be read, the rest of the page still works.
  const [figure, security] = await Promise.all([
    balance(api).then(
      (cash) => ({ balance: cash, balanceError: null }),
      async (error: unknown) => {
        if (error instanceof UpstreamError || error instanceof UpstreamUnavailable)
          return { balance: null, balanceError: await failureMessage(request, error) };
        throw error;
      },
    ),
    offered,
  ]);
  return data(
    { hidden, account: { name: user.email ?? user.mobile, uid: user.uid, isDemo: user.isDemo, security, ...figure } },
    { headers },
  );
}

// Opening or closing the confirmation changes only `confirm`: no need to read the balance again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete('confirm');
    return params.toString();
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  if (formData.get('intent') !== 'reset-demo') throw new Response('Bad request', { status: 400 });
  await requireSignedIn(request);
  const api = await upstreamApi(request, context);
  try {
    // The upstream refuses a real account with its own message.
    await resetDemo(api);
  } catch (error) {
    return redirectWithToast(request, '/mine', { kind: 'error', message: await failureMessage(request, error) });
  }
  const { t } = await translator(request, 'mine');
  return redirectWithToast(request, '/mine', { kind: 'success', message: t('resetDemo.done') });
}

export default function UserCentre() {
  const { hidden: savedHidden, account } = useLoaderData<typeof loader>();
  const { t } = useTranslation('mine');
  const locale = useLocale();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  // With JavaScript the toggle shows its new state while the cookie is being saved.
  const pendingHide = navigation.location?.pathname === '/mine' ? new URLSearchParams(navigation.location.search).get('hide') : null;
  const hidden = pendingHide === '1' || pendingHide === '0' ? pendingHide === '1' : savedHidden;
  const confirming = searchParams.get('confirm');
  return (
    <main className="page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: mineCss }} />
      <PageHeader title={t('title')} back="/" />
      <section className="mine-account" aria-label={t('account.label')}>
        {account ? (
          <>
            <p className="mine-name">
              <strong>{account.isDemo ? t('common:user.demoAccount') : account.name}</strong>
            </p>
            <p className="muted">
              {t('common:user.uid')}: <span className="mine-number">{account.uid}</span>
            </p>
            <div className="mine-balance">
              <span className="muted">{t('account.balance')}</span>
              <strong className="mine-number">
                {account.balance === null ? '—' : hidden ? HIDDEN_BALANCE : formatMoney(account.balance, locale)}
              </strong>
              <Link
                to={`/mine?hide=${hidden ? 0 : 1}`}
                replace
                preventScrollReset
                className="icon-link"
                aria-label={hidden ? t('account.showBalance') : t('account.hideBalance')}
              >
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" className="line-icon">
                  <path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" />
                  <circle cx="12" cy="12" r="3" />
                  {hidden ? <path d="M4 4l16 16" /> : null}
                </svg>
              </Link>
            </div>
            {account.balanceError ? (
              <p className="notice warn" role="alert">
                {account.balanceError}
              </p>
            ) : null}
          </>
        ) : (
          <>
            <p className="mine-name">
              <strong>{t('common:user.visitor')}</strong>
            </p>
            <p className="mine-auth">
              <Link to="/login?from=%2Fmine" className="button">
                {t('common:actions.login')}
              </Link>
              <Link to="/register" className="button secondary">
                {t('common:actions.register')}
              </Link>
            </p>
          </>
        )}
      </section>
      <ul className="list mine-entries" aria-label={t('entries.label')}>
        <Entry to="/mine/charge" label={t('entries.deposit')} />
        <Entry to="/mine/withdraw" label={t('entries.withdraw')} />
        {account?.isDemo ? <Entry to="/mine?confirm=reset-demo" label={t('entries.resetDemo')} /> : null}
        <Entry to="/mine/wallet" label={t('entries.wallet')} />
        <Entry to="/mine/auth" label={t('entries.auth')} />
        <Entry to="/mine/invite" label={t('entries.invite')} />
        <Entry to="/alerts" label={t('alerts:entry')} />
        <Entry to="/mine/password" label={t('auth:changePassword.title')} />
        {account?.security ? <Entry to="/mine/security" label={t('security:entry')} /> : null}
        <Entry to="/mine/chat" label={t('entries.chat')} />
        <Entry to="/mine/email" label={t('entries.email')} />
        <Entry to="/mine/announcement" label={t('entries.announcement')} />
        <Entry to="/language" label={t('entries.language')} />
        <Entry to="/mine/system" label={t('entries.system')} />
      </ul>
      {confirming === 'reset-demo' && account?.isDemo ? (
        <ConfirmDialog
          title={t('resetDemo.title')}
          message={t('resetDemo.message')}
          confirmLabel={t('resetDemo.confirm')}
          action="/mine?index"
          intent="reset-demo"
          cancelTo="/mine"
          danger
        />
      ) : null}
    </main>
  );
}

function Entry({ to, label }: { to: string; label: string }) {
  return (
    <li>
      <Link to={to} className="list-item" preventScrollReset={to.startsWith('/mine?')}>
        <span className="grow">{label}</span>
      </Link>
    </li>
  );
}
