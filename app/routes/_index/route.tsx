/**
 * Home: the market list (spec §2). Server-rendered from the upstream's trade list; the category chips,
 * sparklines and live prices grow here.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '~/components/page-header';
import { loaderFailure, upstreamApi } from '~/upstream/api.server';
import { listCategories, listInstruments } from '~/upstream/market.server';
import type { RouteHandle } from '~/root';
import { MarketList } from './market-list';

export const handle: RouteHandle = { footer: true };

export const meta: MetaFunction = () => [{ title: 'LotFX' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await upstreamApi(request, context);
  try {
    const [instruments, categories] = await Promise.all([listInstruments(api), listCategories(api)]);
    return { instruments: instruments.data, categories: categories.data, lang: api.lang };
  } catch (error) {
    return loaderFailure(request, error);
  }
}

export default function Home() {
  const { instruments, categories } = useLoaderData<typeof loader>();
  const { t } = useTranslation('market');
  return (
    <main className="page">
      <PageHeader title={t('title')} />
      <MarketList instruments={instruments} categories={categories} />
    </main>
  );
}
