import { z } from 'zod';
import type { Meta } from '../trpc.js';

/** How a back-office operation is documented (REST path, tag, summary, description) and who may call it. */
export const openapi = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: `/${string}`, tag: string, summary: string, description?: string) =>
  ({ method, path, tags: [tag], summary, ...(description ? { description } : {}) });
/** A read: every operator of the marketplace (viewers too). */
export const read = (o: ReturnType<typeof openapi>, extra: Partial<Meta> = {}): Meta => ({ auth: 'operator', openapi: o, ...extra });
/** A change: admins only (viewers 403, back-office/procedure.ts), one audit row. */
export const write = (o: ReturnType<typeof openapi>, extra: Partial<Meta> = {}): Meta => ({ auth: 'operator', write: true, openapi: o, ...extra });

export const ZId = z.strictObject({ id: z.uuid() });
