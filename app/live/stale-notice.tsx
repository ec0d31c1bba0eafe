/** The words a live screen shows while its prices may be old; only this notice follows the feed's health. */
import { useFeedStale } from './hooks';

export function StaleNotice({ text }: { text: string }) {
  return useFeedStale() ? (
    <p className="notice warn stale-badge" role="status">
      {text}
    </p>
  ) : null;
}
