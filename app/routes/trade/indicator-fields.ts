/** The "Indicators" sheet's field names and limits, shared by the sheet and the loader that reads it. */

/** The address's parameter: `ind=ma20-ema12-boll-rsi`. The sheet also sends `ind=boll` per checked box. */
export const INDICATOR_PARAM = 'ind';
/** The sheet's hidden field: this GET is the trader choosing (set the cookie), not a link being followed. */
export const SHEET_MARKER = 'indicators';
/** An MA or EMA period the sheet accepts. */
export const AVERAGE_PERIODS = { min: 2, max: 200 } as const;
