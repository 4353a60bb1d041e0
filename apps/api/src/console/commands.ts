import type { z } from 'zod';
import type { consoleCaller, consoleRouter } from '@hm/contract/console';
import { flagsOf, usageOf, type Flag } from './flags.js';

/** One console command: `<group> <action>`, a procedure of the console router. */
export interface Command {
  name: string;
  description?: string;
  flags: Flag[];
  usage: string;
  call(caller: ReturnType<typeof consoleCaller>, input: unknown): Promise<unknown>;
  /** the one line printed instead of the JSON result (`operators create`: the invitation link) */
  line?: (output: unknown) => string;
}

type Procedures = Record<string, { _def: { inputs: z.ZodObject[]; meta?: { cliLine?: (output: unknown) => string } } }>;
type DynamicCaller = Record<string, Record<string, (input: unknown) => Promise<unknown>>>;

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Every procedure of the console router as a command, in the router's order (`listings.setCommission` → `listings set-commission`). */
export function commandsOf(router: typeof consoleRouter): Map<string, Command> {
  const commands = new Map<string, Command>();
  for (const [path, procedure] of Object.entries(router._def.procedures as unknown as Procedures)) {
    // `group.action`, or a procedure at the router's top: a command of one word (`doctor`)
    const [group, action] = path.split('.') as [string, string | undefined];
    const input = procedure._def.inputs[0]!;
    const flags = flagsOf(input);
    const name = action === undefined ? group : `${group} ${kebab(action)}`;
    commands.set(name, {
      name,
      ...(input.description ? { description: input.description } : {}),
      flags,
      usage: usageOf(flags),
      call: (caller, value) => {
        const callable = caller as unknown as DynamicCaller & Record<string, (input: unknown) => Promise<unknown>>;
        return action === undefined ? callable[group]!(value) : callable[group]![action]!(value);
      },
      ...(procedure._def.meta?.cliLine ? { line: procedure._def.meta.cliLine } : {}),
    });
  }
  return commands;
}
