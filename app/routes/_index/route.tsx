/**
 * Home: the market list (spec §2). Server-rendered from the upstream's trade list; the category chips,
 * sparklines and live prices grow here.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { listCategories, listInstruments } from '~/upstream/market.server';
import { MarketList } from './market-list';

export const meta: MetaFunction = () => [{ title: 'Markets' }];

export async function loader({ context }: LoaderFunctionArgs) {
  const options = { lang: 'en' as const };
  const [instruments, categories] = await Promise.all([listInstruments(context.upstream, options), listCategories(context.upstream, options)]);
  return { instruments, categories };
}

export default function Home() {
  const { instruments, categories } = useLoaderData<typeof loader>();
  return (
    <main className="page">
      <header className="page-header">
        <h1>Markets</h1>
      </header>
      <MarketList instruments={instruments} categories={categories} />
    </main>
  );
}
