/** The deposit form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schema. */
import { parseWithZod } from '@conform-to/zod/v3';
import { DepositFormSchema } from './schema';

export const checkDeposit = (formData: FormData) => parseWithZod(formData, { schema: DepositFormSchema });
