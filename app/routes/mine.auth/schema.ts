import { z } from 'zod';
import { ID_NUMBER } from '#contract/identity-rules';

/** The identity form (spec §5): name and ID number; the photos' references once uploaded. Messages are translation keys. */
export const IdentitySchema = z.object({
  name: z.string({ required_error: 'identity:validation.name' }).trim().min(1, 'identity:validation.name').max(100),
  card_id: z.string({ required_error: 'identity:validation.idNumber' }).trim().regex(ID_NUMBER, 'identity:validation.idNumber'),
  front_pic: z.string().max(200).optional(),
  reverse_pic: z.string().max(200).optional(),
});
