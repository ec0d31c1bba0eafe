/** The add form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schema. */
import { parseWithZod } from '@conform-to/zod/v3';
import { addAlertSchema } from './schema';

export const checkAddAlert = (formData: FormData, precision: number) => parseWithZod(formData, { schema: addAlertSchema(precision) });
