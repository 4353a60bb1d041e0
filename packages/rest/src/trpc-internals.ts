import { callTRPCProcedure, getTRPCErrorShape, TRPCError, type AnyTRPCRouter } from '@trpc/server';

/**
 * Every use of tRPC in this package beyond `initTRPC`/`TRPCError`, in one file: the calls go
 * through tRPC's public exports (`callTRPCProcedure`, `getTRPCErrorShape`), and the only shapes
 * read from a router are its typed `_def` fields (`procedures`, `_config`, a procedure's `_def.type`
 * and `_def.inputs`, `_def.meta`). trpc-internals.test.ts pins what this relies on and names the
 * installed tRPC version when an upgrade changes it.
 */
export interface ProcedureDef {
  _def: { type: 'query' | 'mutation' | 'subscription'; inputs: unknown[]; meta?: unknown };
}

export function proceduresOf(router: AnyTRPCRouter): Record<string, ProcedureDef> {
  return router._def.procedures as Record<string, ProcedureDef>;
}

export type ProcedureType = 'query' | 'mutation';

/** Calls one procedure of the router, as tRPC's own adapters do: middlewares, input parsers, output. */
export function callProcedure(router: AnyTRPCRouter, path: string, type: ProcedureType, input: unknown, ctx: unknown): Promise<unknown> {
  return callTRPCProcedure({ router, path, getRawInput: rawInput(input), ctx, type, signal: undefined, batchIndex: 0 });
}

/** Made outside the caller: a function named where it is made costs a `__name` call per request under tsx (esbuild keepNames). */
const rawInput = (input: unknown) => async () => input;

/** The router's error formatter's answer for an error of a call (what a tRPC client would receive as `error`). */
export function errorShape(router: AnyTRPCRouter, error: TRPCError, path: string, type: ProcedureType, input: unknown, ctx: unknown): unknown {
  return getTRPCErrorShape({ config: router._def._config, error, type, path, input, ctx });
}

/** A thrown value as a TRPCError (anything else is an internal error keeping its cause and stack). */
export function errorOf(cause: unknown): TRPCError {
  if (cause instanceof Error && cause.name === 'TRPCError') return cause as TRPCError;
  const error = new TRPCError({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', cause: cause instanceof Error ? cause : undefined });
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return error;
}
