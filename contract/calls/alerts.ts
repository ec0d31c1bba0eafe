/** Price alerts (issue 13): a trader asks to be told when an instrument's price rises to or falls to a level. */
import { z } from 'zod/v4';
import { codeField, DecimalField, OptionalText, PositiveInt } from '../fields';
import { ALERT_NOTE_MAX, AlertDirection } from '../alert-rules';
import { defineCall } from './define';

export { AlertDirection, MAX_ACTIVE_ALERTS, alertReached } from '../alert-rules';

export const AlertSchema = z.object({
  id: z.number().int(),
  forex_id: z.number().int(),
  /** The instrument's code and display name, and its price decimals. */
  code: z.string(),
  show_code: z.string(),
  precision: z.number().int(),
  direction: codeField([AlertDirection.Above, AlertDirection.Below]),
  price: z.number(),
  note: z.string(),
  created_at: z.string(),
  /** When the price reached the level (ISO time); null while the alert waits. */
  triggered_at: z.string().nullable(),
  /** The price of the tick that reached it; null while the alert waits. */
  triggered_price: z.number().nullable(),
});
export type Alert = z.infer<typeof AlertSchema>;

/** Newest first: waiting ones and those that fired (with their time). */
export const alertList = defineCall({
  name: 'alert/list',
  method: 'GET',
  path: '/v1/api/alert/list',
  auth: 'required',
  request: z.object({}),
  response: z.array(AlertSchema),
});

const AddAlertSchema = z.object({
  forex_id: PositiveInt,
  direction: codeField([AlertDirection.Above, AlertDirection.Below]),
  /** A positive price on the instrument's decimals, on the side of the current price that `direction` names. */
  price: DecimalField,
  note: OptionalText.refine((s) => s === undefined || s.length <= ALERT_NOTE_MAX, { message: `at most ${ALERT_NOTE_MAX} characters` }),
});
export const alertAdd = defineCall({
  name: 'alert/add',
  method: 'POST',
  path: '/v1/api/alert/add',
  auth: 'required',
  request: AddAlertSchema,
  response: AlertSchema,
});

export const alertDel = defineCall({
  name: 'alert/del',
  method: 'POST',
  path: '/v1/api/alert/del',
  auth: 'required',
  request: z.object({ id: PositiveInt }),
  response: z.null(),
});
