/** The browser's events on `GET /stream`: one definition, shared with the app's live store. */
export type * from '../../contract/stream';
