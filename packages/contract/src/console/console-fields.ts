import { z } from 'zod';

/**
 * How the operator CLI reads a console input field beyond what its type says. Flags, their types
 * and their help come from the input schemas (apps/api/src/console/flags.ts); this registry only
 * marks the two things a type cannot say.
 */
export interface ConsoleField {
  /** read from the JSON file named by `--file` (at most one per command) */
  file?: true;
  /** with `file`: the file's bytes (a Buffer), not JSON */
  binary?: true;
  /** a word that stands for null on the command line (e.g. `default` for "no override") */
  nullWord?: string;
}

export const consoleFields = z.registry<ConsoleField>();

/** The field is the content of the JSON file given as `--file`. */
export function fromFile<T extends z.ZodType>(schema: T, description: string): T {
  const field = schema.describe(description);
  consoleFields.add(field, { file: true });
  return field;
}

/** On the command line, `word` stands for null. */
export function nullAs<T extends z.ZodType>(schema: T, word: string, description: string): T {
  const field = schema.describe(description);
  consoleFields.add(field, { nullWord: word });
  return field;
}

/** The field is the bytes of the file given as `--file` (an image …). */
export function fromBinaryFile<T extends z.ZodType>(schema: T, description: string): T {
  const field = schema.describe(description);
  consoleFields.add(field, { file: true, binary: true });
  return field;
}
