/** The identity form's checks in the browser, loaded after the page (decision 0028); the action parses with the same schema. */
import { parseWithZod } from '@conform-to/zod/v3';
import { IdentitySchema } from './schema';

export const checkIdentity = (formData: FormData) => parseWithZod(formData, { schema: IdentitySchema });
