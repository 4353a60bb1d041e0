import { z } from 'zod';
import { router } from '../../trpc.js';
import { perform } from '../../console/operations.js';
import { exportNewsletterOp } from '../../console/procedures/export-newsletter.js';
import { operatorProcedure } from '../procedure.js';

/** The newsletter's sign-ups: JSON for the app here; the CSV download is a raw route (apps/api/src/http/console.ts) over this. */
export const newsletter = router({
  export: operatorProcedure
    .meta({ auth: 'operator' })
    .input(z.object({}))
    .query(({ ctx }) => perform(exportNewsletterOp, ctx.scope, {})),
});
