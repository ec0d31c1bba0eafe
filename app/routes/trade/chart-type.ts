/** The chart's types (issue 40) and the address's names for the chart's choices, shared by the loader and the links. */
import { CHART_TYPES, type ChartType } from '~/components/candle-chart/chart-types';

export { CHART_TYPES, type ChartType };
export const DEFAULT_CHART_TYPE: ChartType = 'candles';
/** The address's parameter: `type=line`. */
export const TYPE_PARAM = 'type';
/** Set by the type bar's links only: this visit is the trader choosing (keep it on the device), not a shared link. */
export const TYPE_MARKER = 'keep';
/** The history window's cursor: the SVG draws the candles strictly older than this candle time. */
export const BEFORE_PARAM = 'before';
