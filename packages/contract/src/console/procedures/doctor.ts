import { z } from 'zod';
import { runDoctor } from '@hm/domain/doctor';
import { consoleProcedure } from '../../trpc.js';

export const doctorProcedure = consoleProcedure
  .input(
    z
      .strictObject({})
      .describe(
        'The go-live check: for the deployment and each marketplace, what is ready to take real money and what is not, each with a one-line fix (Stripe key, platform account, Connect, both webhook endpoints, Resend domain, bucket, https URLs, database role, migrations, worker, embedded database). Exits 1 when anything is not ready; on a test deployment it lists what the deployment lacks for live.',
      ),
  )
  .query(async ({ ctx }) => {
    // the deployment's configuration comes with the CLI's context (runtime.ts): a caller without it cannot be checked
    if (!ctx.deployment) throw new Error('The go-live check needs the deployment’s configuration: run it as `npm run console -- doctor`.');
    return runDoctor({ ...ctx, deployment: ctx.deployment });
  });
