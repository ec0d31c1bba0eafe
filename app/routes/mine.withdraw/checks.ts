/** The withdrawal form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schema. */
import { parseWithZod } from '@conform-to/zod/v3';
import { WithdrawFormSchema } from './schema';

export const checkWithdraw = (formData: FormData) => parseWithZod(formData, { schema: WithdrawFormSchema });
