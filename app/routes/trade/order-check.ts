/**
 * The order form's checks in the browser: the order schema through conform's zod adapter. The ticket loads this
 * once the page is up (order-form.tsx), so zod is not part of /trade's first-load script (decision 0028); the
 * action checks every order with the same schema on the server.
 */
import { parseWithZod } from '@conform-to/zod/v3';
import type { OrderRules } from './order-rules';
import { orderSchemaFor } from './schema';

export const checkOrder = (formData: FormData, forexId: number, rules: OrderRules) =>
  parseWithZod(formData, { schema: orderSchemaFor(forexId, rules) });
