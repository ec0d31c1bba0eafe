/** The bind form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schema. */
import { parseWithZod } from '@conform-to/zod/v3';
import type { WithdrawType } from '#contract/enums';
import { bindFormSchema } from './schema';

export const checkBind = (formData: FormData, type: WithdrawType, networkOf: (currencyId: number) => string | undefined) =>
  parseWithZod(formData, { schema: bindFormSchema(type, networkOf) });
