export type * from '#contract/stream';
