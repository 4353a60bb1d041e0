import type { User } from '@hm/db/entities';
import type { CommandContext } from '../core/context.js';
import { startConversation, supportInbox } from '../messages/index.js';
import { DEMO_BUYER } from './data/people.js';

/**
 * Work the demo leaves for the team (issue 26), so the back office's attention list is not empty on
 * a first start. Each step looks first and does only what is missing: a restart adds nothing.
 */
export async function seedDemoWork(ctx: CommandContext, people: Map<string, User>): Promise<{ added: string[] }> {
  const added: string[] = [];
  // the demo buyer asks support a question nobody has answered yet (once: any support conversation counts)
  if ((await supportInbox(ctx.em, { unanswered: false, limit: 1 })).length === 0) {
    await startConversation({ ...ctx, user: people.get(DEMO_BUYER.key)! }, { support: true, body: 'Hi! Can you store my armchair until it sells? I live in Stockholm.' });
    added.push('a support question');
  }
  return { added };
}
