import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TRPCError } from '@trpc/server';
import { consoleCaller } from '@hm/domain/console';
import { systemClock } from '@hm/domain/context';
import { DomainError, problemOf, type Problem } from '@hm/domain/errors';
import { toProblem } from '@hm/domain/trpc';
import { EmbeddedPostgresError } from '@hm/db/postgres';
import { connect, createImageStore, loadConfig } from '../runtime.js';
import { COMMANDS, type Caller } from './commands.js';

/**
 * Operator console: `npm run --silent console -- <group> <action> [--flags]`.
 * Prints one JSON document on stdout; errors are a problem JSON on stderr with a non-zero exit.
 * Works whether or not the server runs: it joins the embedded database or starts it briefly.
 */
const [group, action, ...rest] = process.argv.slice(2);
const name = `${group ?? ''} ${action ?? ''}`.trim();
const command = COMMANDS[name];

function fail(problem: Problem, exitCode = 1): never {
  process.stderr.write(`${JSON.stringify(problem, null, 2)}\n`);
  process.exit(exitCode);
}

if (!command) {
  const usage = Object.entries(COMMANDS)
    .map(([n, c]) => `  ${n} ${c.usage}`)
    .join('\n');
  fail(problemOf('malformed_request', `${name ? `Unknown command "${name}". ` : ''}Usage: npm run --silent console -- <group> <action> [--flags]\n${usage}`), 2);
}

let values: Record<string, string | undefined>;
try {
  ({ values } = parseArgs({ args: rest, options: Object.fromEntries(command.flags.map((f) => [f, { type: 'string' as const }])), strict: true, allowPositionals: false }) as {
    values: Record<string, string | undefined>;
  });
} catch (e) {
  fail(problemOf('malformed_request', `${(e as Error).message}. Usage: ${name} ${command.usage}`), 2);
}

const readJsonFile = (flag: string): unknown => {
  const file = values[flag];
  if (!file) throw new DomainError('validation_failed', `--${flag} is required.`, { errors: [{ location: `flag.${flag}`, message: 'Required.', value: null }] });
  try {
    return JSON.parse(readFileSync(path.resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8'));
  } catch (e) {
    throw new DomainError('malformed_request', `Cannot read ${file} as JSON: ${(e as Error).message}`);
  }
};

const config = loadConfig();
// The database down or restarting is a 503 problem like any other error here, not a stack.
const db = await connect(config).catch((e: unknown) => {
  const problem = e instanceof EmbeddedPostgresError ? problemOf('service_unavailable', e.message) : toProblem(e as Error, undefined, undefined);
  if (problem.code === 'internal_error') process.stderr.write(`${(e as Error).stack ?? e}\n`);
  return fail(problem);
});
const caller: Caller = consoleCaller({
  orm: db.orm,
  mode: config.API_MODE,
  clock: systemClock,
  transport: 'console',
  requestId: `console_${Date.now()}`,
  auth: undefined,
  sessionToken: undefined,
  publicUrl: config.apiUrl,
  images: createImageStore(config),
});

/** Console input arrives as flags and files: say `flag.<name>` / `file.<path>` rather than `body.…`. */
function forCli(p: Problem): Problem {
  const fileKeys = new Set(['items', 'settings', 'site']);
  const errors = p.errors.map((e) => {
    const [, head, ...tail] = e.location.split('.');
    if (!e.location.startsWith('body.') || !head) return e;
    if (fileKeys.has(head)) return { ...e, location: ['file', ...tail].join('.') };
    const flag = head.replaceAll('_', '-');
    if (command!.flags.includes(flag)) return { ...e, location: ['flag', flag, ...tail].join('.') };
    // checks inside a command speak of the file's content from its root
    return { ...e, location: ['file', head, ...tail].join('.') };
  });
  const detail = errors.length === 1 ? `${errors[0]!.location}: ${errors[0]!.message}` : p.detail;
  return { ...p, detail, errors };
}

let exitCode = 0;
let input: Record<string, unknown> | undefined;
try {
  input = command.input(values, readJsonFile);
  const result = await command.call(caller, input as never);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} catch (e) {
  const problem = forCli(e instanceof DomainError ? problemOf(e.code, e.message, e.errors) : toProblem(e instanceof TRPCError ? e : (e as Error), undefined, input));
  if (problem.status >= 500) process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.stderr.write(`${JSON.stringify(problem, null, 2)}\n`);
  exitCode = 1;
} finally {
  await db.close();
}
process.exit(exitCode);
