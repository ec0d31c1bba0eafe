/**
 * The candle history behind the trade screen's chart (`/candles?code=EURUSD&period=15min&v=3`): the page carries
 * only the candles its SVG draws, and the canvas chart asks for the rest when it loads, to scroll back in time.
 * With `before` (a candle time), the page of candles strictly older than it: the canvas asks for one page at a time
 * as the trader scrolls back (issue 40). Public market data, the same for everyone. `v=3` (the stream's version) asks
 * for the Candle view; a chart loaded before it asks without and gets the shape it reads.
 */
import type { LoaderFunctionArgs } from '@remix-run/node';
import { upstreamApi, upstreamFallback } from '~/upstream/api.server';
import { chartCandles, instrumentList } from '~/upstream/market.server';
import { periodOf } from './trade/trade-url';
import { windowCursor } from './trade/chart-choice.server';
import { chartCandle, type Candle } from '~/components/candle-chart/candles';
import { STREAM_VERSION } from '#contract/stream';

/** A candle as charts loaded before version 3 read it. */
const candleBeforeViews = ({ time, open, high, low, close }: Candle) => ({ Time: time, Open: open, High: high, Low: low, Close: close });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const params = url.searchParams;
  const api = await upstreamApi(request, context);
  try {
    const instrument = (await instrumentList(api)).instruments.find((i) => i.code === params.get('code'));
    if (!instrument) return new Response('Not found', { status: 404 });
    const list = (await chartCandles(api, instrument.id, periodOf(params.get('period')), undefined, windowCursor(url))).map(chartCandle);
    const shaped = params.get('v') === String(STREAM_VERSION) ? list : list.map(candleBeforeViews);
    return Response.json(shaped, { headers: { 'cache-control': 'public, max-age=5' } });
  } catch (error) {
    // Without the history the chart still shows the page's candles; a fault of ours (not the upstream's) goes on.
    const unavailable = new Response('Candles unavailable', { status: 503, headers: { 'cache-control': 'no-store' } });
    return upstreamFallback(unavailable, `candle history of ${params.get('code')} (${params.get('period')})`)(error);
  }
}
