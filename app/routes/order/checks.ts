/** The detail popup's checks in the browser, loaded after the page (decision 0028); the action parses with the same schemas. */
import { parseWithZod } from '@conform-to/zod/v3';
import { CancelFormSchema, CloseFormSchema, StopsFormSchema } from './schema';

export const checkStops = (formData: FormData) => parseWithZod(formData, { schema: StopsFormSchema });
export const checkClose = (formData: FormData) => parseWithZod(formData, { schema: CloseFormSchema });
export const checkCancel = (formData: FormData) => parseWithZod(formData, { schema: CancelFormSchema });
