/**
 * Dragging a take-profit or stop-loss line on the canvas chart, with a mouse, a pen or a finger. A press
 * near a draggable line takes the pointer away from the chart's own scrolling; letting go elsewhere than
 * where it started reports the new price (the chart's owner then asks before saving anything).
 */
import type { IPriceLine, ISeriesApi, SeriesType } from 'lightweight-charts';
import type { ChartLine } from './order-lines';

export interface DraggedLine {
  line: ChartLine;
  priceLine: IPriceLine;
}

/** How far from a line (CSS pixels) a press still takes it: a finger is less precise than a mouse. */
const REACH = { mouse: 6, pen: 10, touch: 16 } as const;

export function attachLineDrag(
  host: HTMLElement,
  series: ISeriesApi<SeriesType>,
  options: {
    /** The lines as drawn now. */
    lines: () => readonly DraggedLine[];
    /** Where the plot ends and the price axis begins (CSS pixels from the left). */
    plotWidth: () => number;
    precision: () => number;
    onDrop: (line: ChartLine, price: number) => void;
  },
): () => void {
  let drag: { pointerId: number; target: DraggedLine; price: number } | null = null;

  const priceAt = (clientY: number): number | null => {
    const y = clientY - host.getBoundingClientRect().top;
    const price = series.coordinateToPrice(y);
    if (price === null || !(price > 0)) return null;
    const digits = options.precision();
    return Number(price.toFixed(digits));
  };

  const lineAt = (event: PointerEvent): DraggedLine | null => {
    const box = host.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    if (x < 0 || x > options.plotWidth()) return null;
    const reach = REACH[event.pointerType as keyof typeof REACH] ?? REACH.mouse;
    let best: DraggedLine | null = null;
    let bestDistance: number = reach;
    for (const drawn of options.lines()) {
      if (!drawn.line.draggable) continue;
      const at = series.priceToCoordinate(drawn.priceLine.options().price);
      if (at === null) continue;
      const distance = Math.abs(at - y);
      if (distance <= bestDistance) {
        best = drawn;
        bestDistance = distance;
      }
    }
    return best;
  };

  const stop = (event: Event) => {
    event.stopPropagation();
    if (event.cancelable) event.preventDefault();
  };

  const end = (event: PointerEvent, dropped: boolean) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    stop(event);
    const { target, price } = drag;
    drag = null;
    if (host.hasPointerCapture(event.pointerId)) host.releasePointerCapture(event.pointerId);
    if (dropped && price !== target.line.price) options.onDrop(target.line, price);
    else target.priceLine.applyOptions({ price: target.line.price });
  };

  const onDown = (event: PointerEvent) => {
    if (drag || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const target = lineAt(event);
    if (!target) return;
    stop(event);
    drag = { pointerId: event.pointerId, target, price: target.priceLine.options().price };
    host.setPointerCapture(event.pointerId);
  };
  const onMove = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointerId) {
      // A mouse over a draggable line says it can be moved.
      if (!drag && event.pointerType === 'mouse') host.style.cursor = lineAt(event) ? 'ns-resize' : '';
      return;
    }
    stop(event);
    const price = priceAt(event.clientY);
    if (price === null) return;
    drag.price = price;
    drag.target.priceLine.applyOptions({ price });
  };
  const onUp = (event: PointerEvent) => end(event, true);
  const onCancel = (event: PointerEvent) => end(event, false);
  // The chart listens to mouse and touch events: while a line is held, none of them reach it.
  const whileDragging = (event: Event) => {
    if (drag) stop(event);
  };

  const pointer: [string, (e: PointerEvent) => void][] = [
    ['pointerdown', onDown],
    ['pointermove', onMove],
    ['pointerup', onUp],
    ['pointercancel', onCancel],
  ];
  const others = ['mousedown', 'mousemove', 'mouseup', 'touchstart', 'touchmove', 'touchend', 'wheel'];
  for (const [name, listener] of pointer) host.addEventListener(name, listener as EventListener, { capture: true });
  for (const name of others) host.addEventListener(name, whileDragging, { capture: true, passive: false });
  return () => {
    for (const [name, listener] of pointer) host.removeEventListener(name, listener as EventListener, { capture: true });
    for (const name of others) host.removeEventListener(name, whileDragging, { capture: true });
  };
}
