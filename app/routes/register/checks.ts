/** The sign-up form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schemas. */
import { parseWithZod } from '@conform-to/zod/v3';
import { RegisterCaptchaFormSchema, RegisterFormSchema, RegisterSendCodeSchema } from './schema';

export const checkRegister = (formData: FormData, byPicture: boolean) =>
  parseWithZod(formData, { schema: byPicture ? RegisterCaptchaFormSchema : RegisterFormSchema });

/** Whether "Send code" may go: the address is one. */
export const canGetCode = (account: FormDataEntryValue | null) => RegisterSendCodeSchema.safeParse({ account }).success;
