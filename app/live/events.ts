export type * from '#contract/stream';
// Until the trade and order screens read the views (their files are being split), the tab reads version 2's shapes.
export type {
  LegacyAccountData as AccountData,
  LegacyAlertData as AlertData,
  LegacyKlineData as KlineData,
  LegacyQuoteData as QuoteData,
} from '#contract/stream';

/** The window event by which the stream says it lost events it could not replay (see resync.tsx). */
export const RESYNC_EVENT = 'live-resync';
