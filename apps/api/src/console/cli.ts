import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { consoleCaller, consoleRouter } from '@hm/contract/console';
import { consoleContext } from '@hm/domain/core';
import { DomainError, problemOf, type Problem } from '@hm/contract/problems';
import { locateFields, plainProblem } from '@hm/contract/trpc';
import { EmbeddedPostgresError } from '@hm/db/postgres';
import { connect, createPorts, loadConfig } from '../runtime.js';
import { commandsOf, type Command } from './commands.js';
import { helpOf, inputOf, withBareBooleans } from './flags.js';

/**
 * Operator console: `npm run --silent console -- <group> <action> [--flags]` (`--help` after a
 * command lists its flags). Commands and flags come from the console router's procedures and their
 * input schemas. Prints one JSON document on stdout; errors are a problem JSON on stderr with a
 * non-zero exit (also a result that says `ready: false`: the go-live check). Works whether or not the server runs: it joins the embedded database or starts it briefly.
 */
const COMMANDS = commandsOf(consoleRouter);
const [group, second, ...others] = process.argv.slice(2);
// a command of one word (`doctor`) takes everything after it as flags
const single = group !== undefined && COMMANDS.has(group) && !COMMANDS.has(`${group} ${second ?? ''}`);
const action = single ? undefined : second;
const rest = single && second !== undefined ? [second, ...others] : others;
const name = `${group ?? ''} ${action ?? ''}`.trim();

function fail(problem: Problem, exitCode = 1): never {
  process.stderr.write(`${JSON.stringify(problem, null, 2)}\n`);
  process.exit(exitCode);
}

const overview = () => [...COMMANDS.values()].map((c) => `  ${c.name} ${c.usage}`.trimEnd()).join('\n');
if (group === '--help' || group === 'help') {
  process.stdout.write(`Usage: npm run --silent console -- <group> <action> [--flags]   (<group> <action> --help: the flags)\n${overview()}\n`);
  process.exit(0);
}
const command = COMMANDS.get(name);
if (!command) {
  fail(problemOf('malformed_request', `${name ? `Unknown command "${name}". ` : ''}Usage: npm run --silent console -- <group> <action> [--flags]\n${overview()}`), 2);
}

let values: Record<string, string | boolean | undefined>;
try {
  const options = Object.fromEntries(command.flags.map((f) => [f.name, { type: 'string' as const }]));
  ({ values } = parseArgs({ args: withBareBooleans(rest, command.flags), options: { ...options, help: { type: 'boolean' } }, strict: true, allowPositionals: false }));
} catch (e) {
  fail(problemOf('malformed_request', `${(e as Error).message}. Usage: ${name} ${command.usage}`), 2);
}
if (values.help) {
  process.stdout.write(helpOf(name, command.description, command.flags));
  process.exit(0);
}
const flagValues = values as Record<string, string | undefined>;

const readJsonFile = (file: string, binary?: boolean): unknown => {
  const at = path.resolve(process.env.INIT_CWD || process.cwd(), file);
  if (binary) {
    try {
      return readFileSync(at);
    } catch (e) {
      throw new DomainError('malformed_request', `Cannot read ${file}: ${(e as Error).message}`);
    }
  }
  try {
    return JSON.parse(readFileSync(at, 'utf8'));
  } catch (e) {
    throw new DomainError('malformed_request', `Cannot read ${file} as JSON: ${(e as Error).message}`);
  }
};

/**
 * Console input arrives as flags and one file: a field filled by a flag is `flag.<name>…`, the
 * file's content is `file.<path>`; checks inside a command that speak of the file from its root
 * (`0.parent`, `listings.required_terms.0`) are `file.…` too.
 */
function cliLocation(c: Command, field: string): string {
  const [head = '', ...tail] = field.split('.');
  const flag = c.flags.find((f) => f.field === head);
  if (flag?.kind === 'file') return tail.length || flagValues.file !== undefined ? ['file', ...tail].join('.') : 'flag.file';
  if (flag) return ['flag', flag.name, ...tail].join('.');
  return field ? `file.${field}` : 'file';
}

const config = loadConfig();
// The database down or restarting is a 503 problem like any other error here, not a stack.
const db = await connect(config).catch((e: unknown) => {
  const problem = e instanceof EmbeddedPostgresError ? problemOf('service_unavailable', e.message) : plainProblem(e as Error, undefined);
  if (problem.code === 'internal_error') process.stderr.write(`${(e as Error).stack ?? e}\n`);
  return fail(problem);
});
const deployment = {
  mailFrom: config.MAIL_FROM,
  embeddedDatabase: db.embedded,
  stripeWebhookSecret: Boolean(config.STRIPE_WEBHOOK_SECRET),
  stripeConnectWebhookSecret: Boolean(config.STRIPE_CONNECT_WEBHOOK_SECRET),
};
const caller = consoleCaller(consoleContext({ orm: db.orm, mode: config.API_MODE, ports: createPorts(config), publicUrl: config.apiUrl, backOfficeUrl: config.backOfficeUrl, deployment }, `console_${Date.now()}`));

let exitCode = 0;
let input: Record<string, unknown> | undefined;
try {
  input = inputOf(command.flags, flagValues, readJsonFile);
  const result = await command.call(caller, input);
  process.stdout.write(command.line ? `${command.line(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
  // a check that finds the deployment not ready (`doctor`) fails the command, for scripts and CI
  if ((result as { ready?: unknown } | null)?.ready === false) exitCode = 1;
} catch (e) {
  const problem = locateFields(plainProblem(e as Error, input), (field) => cliLocation(command, field));
  if (problem.status >= 500) process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.stderr.write(`${JSON.stringify(problem, null, 2)}\n`);
  exitCode = 1;
} finally {
  await db.close();
}
process.exit(exitCode);
