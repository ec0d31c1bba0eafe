export type * from '#contract/stream';

/** The window event by which the stream says it lost events it could not replay (see resync.tsx). */
export const RESYNC_EVENT = 'live-resync';
