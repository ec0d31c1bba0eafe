/**
 * The trader's own levels on the chart: each open position's entry, take profit and stop loss, and each
 * pending order's target. One list for the server's SVG, the canvas and the screen reader's list, made
 * by the server (in the trader's language) so that none of this is in the page's first script.
 */

/** An order of the shown instrument, as the trade loader gives it to the chart. */
export interface ChartOrder {
  id: number;
  /** A pending order (its price is the target) rather than an open position. */
  pending: boolean;
  buy: boolean;
  lots: number;
  price: number;
  takeProfit: number | null;
  stopLoss: number | null;
  /** The trailing stop's distance (0: none); a save from the chart sends it as it is. */
  trail: number;
}

export type LineKind = 'entry' | 'target' | 'takeProfit' | 'stopLoss';

/** What the trade loader gives the chart of a signed-in trader. */
export interface ChartOrders {
  lines: ChartLine[];
  /** The name of the list of lines (for screen readers). */
  label: string;
  /** Every holding position (of any instrument) when the page was loaded. */
  holdingIds: number[];
}

export interface ChartLine {
  key: string;
  orderId: number;
  kind: LineKind;
  buy: boolean;
  price: number;
  /** Drawn beside the line on the SVG ("Buy 0.10 @ 1.10000", "SL 1.09500"). */
  label: string;
  /** Drawn on the canvas, whose price axis shows the price ("Buy 0.10", "SL"). */
  title: string;
  /** Read by screen readers ("Stop loss of #12 at 1.09500"). */
  spoken: string;
  /** A take profit or stop loss of an open position: dragging it moves it. */
  draggable: boolean;
  /** The order's trailing stop distance (0: none). */
  trail: number;
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

export function chartLines(
  orders: readonly ChartOrder[],
  t: Translate,
  formatPrice: (price: number) => string,
  formatLots: (lots: number) => string,
): ChartLine[] {
  const lines: ChartLine[] = [];
  for (const o of orders) {
    const lots = formatLots(o.lots);
    const side = o.pending ? (o.buy ? 'pendingBuy' : 'pendingSell') : o.buy ? 'buy' : 'sell';
    const label = t(`chart.lines.${side}`, { lots, price: formatPrice(o.price) });
    lines.push({
      key: `${o.id}-${o.pending ? 'target' : 'entry'}`,
      orderId: o.id,
      kind: o.pending ? 'target' : 'entry',
      buy: o.buy,
      price: o.price,
      label,
      title: t(`chart.lines.${side}Short`, { lots }),
      spoken: t(o.pending ? 'chart.lines.pendingOf' : 'chart.lines.positionOf', { id: o.id, line: label }),
      draggable: false,
      trail: o.trail,
    });
    // A pending order's own levels wait until it fills; its target is the line that matters now.
    if (o.pending) continue;
    for (const [kind, price, short] of [
      ['takeProfit', o.takeProfit, 'tp'],
      ['stopLoss', o.stopLoss, 'sl'],
    ] as const) {
      if (price === null) continue;
      const shown = formatPrice(price);
      lines.push({
        key: `${o.id}-${kind}`,
        orderId: o.id,
        kind,
        buy: o.buy,
        price,
        label: t(`chart.lines.${short}`, { price: shown }),
        title: t(`chart.lines.${short}Short`),
        spoken: t(`chart.lines.${kind}Of`, { id: o.id, price: shown }),
        draggable: true,
        trail: o.trail,
      });
    }
  }
  return lines;
}
