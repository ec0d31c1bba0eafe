/**
 * The engine's order rules as the product call tells traders (issue 40, the Contract screen). The checks
 * themselves are the engine's (`writeOrder`: stopsValid, lotsAllowed, free margin); this only describes them.
 */

/**
 * A take profit, stop loss or pending price needs only be on the right side of the price, at any distance
 * (stopsValid): no least distance, 0 points. A broker whose engine asks for one sends its own.
 */
export const STOPS_LEVEL_POINTS = 0;

// No maximum lots: an order is bounded only by the free margin, so the product call sends no ForexMaxCont.
