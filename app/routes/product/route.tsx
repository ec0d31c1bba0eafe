/**
 * /product: search (spec §2 "Product search"). When the company switch is on, the service providers come
 * first, with a detail popup (`?provider=ID`) and "direct enter", which remembers the provider for three
 * years; otherwise, and on the products tab, the instruments. A GET search form: no JavaScript needed.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { CsrfInput, SubmitButton } from '~/components/form-parts';
import { PageHeader } from '~/components/page-header';
import { translator } from '~/i18n/i18next.server';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { companies, companyStatus } from '~/upstream/content.server';
import { instrumentList } from '~/upstream/market.server';
import { validateCsrf } from '~/utils/csrf.server';
import { formatPercent, formatPrice, trendOf } from '~/utils/format';
import { useLocale } from '~/utils/locale';
import { toastHeader } from '~/utils/session.server';
import { providerCookie } from './provider-cookie.server';
import { readBoundedForm } from '~/utils/bounded-form.server';
import { namedPageTitle } from '~/utils/page-title';
import { instrumentLogo } from '~/utils/instrument-logo';
import contractCss from '~/styles/contract.css?inline';

export const meta: MetaFunction = (args) => namedPageTitle(args, 'search');

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 40);
  const api = await upstreamApi(request, context);
  try {
    const providersMode = (await companyStatus(api)).data.status === 1;
    const tab = providersMode && url.searchParams.get('tab') !== 'products' ? 'providers' : 'products';
    if (tab === 'providers') {
      const list = (await companies(api, q || undefined)).data;
      const providerId = Number(url.searchParams.get('provider')) || null;
      const chosen: unknown = await providerCookie.parse(request.headers.get('Cookie'));
      return {
        q,
        tab,
        providersMode,
        providers: list,
        instruments: [],
        open: list.find((p) => p.id === providerId) ?? null,
        chosen: typeof chosen === 'number' ? chosen : null,
      };
    }
    const { instruments } = await instrumentList(api, q || undefined);
    return { q, tab, providersMode, providers: [], instruments, open: null, chosen: null };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readBoundedForm(request);
  await validateCsrf(formData, request.headers);
  const id = Number(formData.get('provider'));
  if (!Number.isInteger(id) || id <= 0) throw new Response('Bad request', { status: 400 });
  const { t } = await translator(request, 'market');
  const headers = new Headers();
  headers.append('Set-Cookie', await providerCookie.serialize(id));
  headers.append('Set-Cookie', await toastHeader({ kind: 'success', message: t('providers.entered') }));
  return redirect('/', { headers });
}

export default function ProductSearch() {
  const { q, tab, providersMode, providers, instruments, open, chosen } = useLoaderData<typeof loader>();
  const { t } = useTranslation('market');
  const contract = useTranslation('contract').t;
  const locale = useLocale();
  const here = (extra: Record<string, string>) =>
    `/product?${new URLSearchParams({ ...(q ? { q } : {}), ...(tab === 'products' ? { tab } : {}), ...extra })}`;
  return (
    <main className="page">
      {/* The row's contract link is styled with the Contract screen (decision 0020: styles come with their markup). */}
      <style dangerouslySetInnerHTML={{ __html: contractCss }} />
      <PageHeader title={t('searchTitle')} back="/" />
      <Form method="get" role="search" className="search-form">
        {tab === 'products' && providersMode ? <input type="hidden" name="tab" value="products" /> : null}
        <label htmlFor="product-q" className="visually-hidden">
          {t('searchLabel')}
        </label>
        <input
          id="product-q"
          type="search"
          name="q"
          defaultValue={q}
          placeholder={t('searchPlaceholder')}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className="button">
          {t('searchButton')}
        </button>
      </Form>
      {providersMode ? (
        <nav className="segmented" aria-label={t('searchTabs')}>
          <Link to={`/product${q ? `?q=${encodeURIComponent(q)}` : ''}`} aria-current={tab === 'providers' ? 'page' : undefined} replace>
            {t('providers.tab')}
          </Link>
          <Link
            to={`/product?${new URLSearchParams({ tab: 'products', ...(q ? { q } : {}) })}`}
            aria-current={tab === 'products' ? 'page' : undefined}
            replace
          >
            {t('productsTab')}
          </Link>
        </nav>
      ) : null}
      {tab === 'providers' ? (
        providers.length === 0 ? (
          <p className="empty">{t('noResults')}</p>
        ) : (
          <ul className="list" aria-label={t('providers.tab')}>
            {providers.map((p) => (
              <li key={p.id}>
                <Link to={here({ provider: String(p.id) })} className="list-item" preventScrollReset>
                  <img src={`/logos/${p.logo.split('/').pop()}`} alt="" width={32} height={32} />
                  <span className="grow">
                    <strong>
                      <bdi>{p.name}</bdi>
                    </strong>
                    <small className="muted block">
                      <bdi>{p.subject}</bdi>
                    </small>
                  </span>
                  {chosen === p.id ? <span className="badge">{t('providers.current')}</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        )
      ) : instruments.length === 0 ? (
        <p className="empty">{t('noResults')}</p>
      ) : (
        <ul className="list" aria-label={t('productsTab')}>
          {instruments.map((i) => (
            <li key={i.id} className="product-row">
              <Link to={`/trade?code=${encodeURIComponent(i.code)}`} className="list-item">
                <img src={instrumentLogo(i.code)} alt="" width={32} height={32} loading="lazy" />
                <strong className="grow">{i.symbol}</strong>
                <span className="price">{formatPrice(i.quote.price, i.digits, locale)}</span>
                <span className={`change ${trendOf(i.quote.change)}`}>{formatPercent(i.quote.change, locale)}</span>
              </Link>
              <Link
                to={`/contract/${encodeURIComponent(i.code)}`}
                className="contract-link"
                aria-label={contract('linkFor', { symbol: i.symbol })}
              >
                {contract('link')}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {open ? (
        <div className="dialog-backdrop">
          <section className="dialog" role="dialog" aria-modal="true" aria-labelledby="provider-title">
            <h2 id="provider-title">{open.name}</h2>
            <dl className="details">
              <dt>{t('providers.company')}</dt>
              <dd>{open.name}</dd>
              <dt>{t('providers.email')}</dt>
              <dd>
                <a href={`mailto:${open.email}`}>{open.email}</a>
              </dd>
              <dt>{t('providers.website')}</dt>
              <dd>
                <a href={open.url} rel="noopener noreferrer" target="_blank">
                  {open.url}
                </a>
              </dd>
              <dt>{t('providers.office')}</dt>
              <dd>{open.location}</dd>
              <dt>{t('providers.registered')}</dt>
              <dd>{open.registered_address}</dd>
            </dl>
            <Form method="post" className="dialog-actions">
              <CsrfInput />
              <input type="hidden" name="provider" value={open.id} />
              <Link to={here({})} className="button secondary" preventScrollReset>
                {t('providers.close')}
              </Link>
              <SubmitButton className="button">{t('providers.enter')}</SubmitButton>
            </Form>
          </section>
        </div>
      ) : null}
    </main>
  );
}
