import type { User } from '@hm/db/entities';
import { createConfirmedUser, findUserByEmail } from '../accounts/index.js';
import type { CommandContext } from '../core/context.js';
import { DEMO_BUYER, DEMO_SELLERS, DEMO_SHOPPERS, type DemoPerson } from './data/people.js';

/** The two accounts a developer signs in with; their passwords are chosen by the caller (npm start generates and prints them). */
export interface DemoLogins {
  buyer: { email: string; password: string };
  seller: { email: string; password: string };
}

export const DEMO_SELLER = DEMO_SELLERS.find((s) => s.key === 'seller')!;

/** The emails of the printed accounts (the passwords are per data directory). */
export function demoLogins(passwords: { buyer: string; seller: string }): DemoLogins {
  return { buyer: { email: DEMO_BUYER.email, password: passwords.buyer }, seller: { email: DEMO_SELLER.email, password: passwords.seller } };
}

/**
 * Every person of the demo, found by address or made (confirmed, no emails sent): safe to run again
 * after an interrupted seed. Only the demo buyer and seller get a password; the rest sign in by link.
 */
export async function ensureDemoPeople(ctx: CommandContext, logins: DemoLogins): Promise<Map<string, User>> {
  const people = new Map<string, User>();
  const passwords: Record<string, string> = { [DEMO_BUYER.key]: logins.buyer.password, [DEMO_SELLER.key]: logins.seller.password };
  for (const p of [DEMO_BUYER, ...DEMO_SELLERS, ...DEMO_SHOPPERS] as DemoPerson[]) {
    const found = await findUserByEmail(ctx.em, p.email);
    const user =
      found ??
      (await createConfirmedUser(ctx, {
        email: p.email,
        ...(passwords[p.key] ? { password: passwords[p.key] } : {}),
        first_name: p.firstName,
        last_name: p.lastName,
        display_name: p.displayName,
        bio: p.bio,
        locale: p.locale,
      }));
    people.set(p.key, user);
  }
  return people;
}
