/** The reset form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schemas. */
import { parseWithZod } from '@conform-to/zod/v3';
import { ForgotFormSchema, ForgotSendCodeSchema } from './schema';

export const checkForgot = (formData: FormData) => parseWithZod(formData, { schema: ForgotFormSchema });

/** Whether "Send code" may go: the address is one. */
export const canGetCode = (account: FormDataEntryValue | null) => ForgotSendCodeSchema.safeParse({ account }).success;
