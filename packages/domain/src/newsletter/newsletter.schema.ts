import { z } from 'zod';
import { ZEmail } from '../accounts/index.js';

export const ZSubscribeInput = z.strictObject({
  email: ZEmail.meta({ description: 'The address to sign up (max 254).' }),
  first_name: z.string().max(100).optional().meta({ description: 'Shown to the contact list (max 100).' }),
  locale: z.string().max(35).optional().meta({ description: 'The language the subscriber signed up in, e.g. `sv` (max 35); kept as sent.' }),
  source: z.string().max(60).optional().meta({ description: 'Where the sign-up happened, e.g. `footer` or a page slug (max 60).' }),
});
export type SubscribeInput = z.infer<typeof ZSubscribeInput>;
