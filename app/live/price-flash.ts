/**
 * A price that moves flashes its cell green (up) or red (down) for a moment, as trading screens do: a CSS
 * animation of a layer's opacity (app.css, `[data-flash]`), which the compositor runs without the main thread.
 * Each move names the other of two equal animations, so that the next flash starts over without asking the
 * page's style first. None under `prefers-reduced-motion` (the CSS) or in low-data mode (the switch's cookie or
 * the browser's data saver), where a tick a second is all there is.
 */
import { hasLowDataCookie } from '#contract/stream';

export function flashPrice(cell: HTMLElement, from: number, to: number) {
  if (from === to || (navigator as { connection?: { saveData?: boolean } }).connection?.saveData || hasLowDataCookie(document.cookie))
    return;
  cell.dataset.flash = (to > from ? 'up' : 'down') + (cell.dataset.flash?.endsWith('1') ? 2 : 1);
}
