/**
 * The ticket's parts that follow the price and the fields as typed: the price it was seen at, the estimates, the
 * money at the stops and the confirmation. Each reads the live price and the fields it shows itself (conform's
 * `useFormMetadata` subscribes a component to the values its render reads), so a tick or a keystroke re-renders
 * these parts alone, not the form and its dozen fields around them: on a low-tier phone that whole re-render was
 * most of a keystroke's 300 ms (decision 0048).
 */
import { useFormMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { EntryMode, type Side } from '#contract/enums';
import { parseUnits } from '#contract/money';
import { useLiveQuote } from '~/live/state';
import type { OrderSummary } from './order-confirm';
import { estimateOrder, priceUnits, type Conversion, type TicketInstrument } from './estimates';
import type { OrderFormValues } from './schema';
import { TicketStopMoney, ticketStopMoney } from './ticket-stop-money';
import { TicketEstimates } from './ticket-parts';

/** What every live part of one ticket shares: made once per ticket (route.tsx memoises the ticket). */
export interface TicketPricing {
  formId: string;
  instrument: TicketInstrument;
  conversion: Conversion | null;
  feeType: number | null;
  /** The loader's price, until the stream brings one. */
  fallbackPrice: number;
  /** The entry mode the page was drawn with, while the field has none. */
  defaultEntry: string;
}

/** A posted form may carry a field twice or as name[0]: what comes back is then no text, and no estimate. */
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The instrument's price now, and the one that converts its money to USD. */
function useLivePrices({ instrument, conversion, fallbackPrice }: TicketPricing) {
  const price = useLiveQuote(instrument.id)?.price ?? fallbackPrice;
  const conversionPrice = useLiveQuote(conversion?.viaId)?.price;
  return { price, conversionPrice: conversion?.viaId ? conversionPrice : undefined };
}

/** The fields as typed, and the price the order would open at: the typed target when pending, else the live price. */
function useTicketAtPrice(ticket: TicketPricing) {
  const { price, conversionPrice } = useLivePrices(ticket);
  const fields = useFormMetadata<OrderFormValues>(ticket.formId).getFieldset();
  const pending = (text(fields.entry.value) ?? ticket.defaultEntry) === String(EntryMode.Pending);
  const digits = ticket.instrument.digits;
  const openPrice = pending ? parseUnits(text(fields.target_price.value) ?? '', digits) : priceUnits(price, digits);
  return {
    price,
    conversionPrice,
    pending,
    openPrice,
    /** The open price when it is one (a pending order's target may be empty or zero as typed). */
    reference: openPrice !== null && openPrice > 0 ? openPrice : null,
    lots: text(fields.lots.value),
    leverage: text(fields.leverage.value),
    takeProfit: text(fields.take_profit.value),
    stopLoss: text(fields.stop_loss.value),
    trail: text(fields.trail_distance.value),
  };
}

type AtPrice = ReturnType<typeof useTicketAtPrice>;

function estimateAt(ticket: TicketPricing, at: AtPrice) {
  const { instrument, feeType, conversion } = ticket;
  return estimateOrder({
    instrument,
    feeType,
    lots: at.lots,
    leverage: at.leverage,
    price: at.reference,
    conversion,
    conversionPrice: at.conversionPrice,
  });
}

function stopsAt(ticket: TicketPricing, at: AtPrice) {
  const { instrument, conversion } = ticket;
  return {
    instrument,
    conversion,
    lots: at.lots,
    reference: at.reference,
    conversionPrice: at.conversionPrice,
    takeProfit: at.takeProfit,
    stopLoss: at.stopLoss,
  };
}

/** The price the trader saw when they pressed: the action refuses an order that moved too far from it. */
export function SeenPrice({ ticket }: { ticket: TicketPricing }) {
  const { price } = useLivePrices(ticket);
  return <input type="hidden" name="seen_price" value={price.toFixed(ticket.instrument.digits)} />;
}

export function LiveEstimates({ ticket }: { ticket: TicketPricing }) {
  const at = useTicketAtPrice(ticket);
  const { margin, fee } = estimateAt(ticket, at);
  return <TicketEstimates price={at.price} precision={ticket.instrument.digits} margin={margin} fee={fee} />;
}

export function LiveStopMoney({ ticket, ids }: { ticket: TicketPricing; ids: { takeProfit: string; stopLoss: string } }) {
  const at = useTicketAtPrice(ticket);
  return <TicketStopMoney ids={ids} {...stopsAt(ticket, at)} />;
}

/** The confirmation's figures follow the price and the fields while it is open. */
export function LiveSummary({
  ticket,
  side,
  children,
}: {
  ticket: TicketPricing;
  side: Side;
  children: (summary: OrderSummary) => ReactNode;
}) {
  const at = useTicketAtPrice(ticket);
  const { margin, fee } = estimateAt(ticket, at);
  const digits = ticket.instrument.digits;
  return children({
    side,
    instrument: ticket.instrument,
    lots: at.lots ?? '',
    leverage: at.leverage ?? '',
    pending: at.pending,
    price: at.pending ? (at.openPrice !== null ? at.openPrice / 10 ** digits : null) : at.price,
    takeProfit: at.takeProfit ?? '',
    stopLoss: at.stopLoss ?? '',
    trail: at.trail ?? '',
    stops: ticketStopMoney({ ...stopsAt(ticket, at), side }),
    margin,
    fee,
  });
}
