import type { MikroORM, EntityManager } from '@hm/db/orm';
import type { Marketplace, Session, User } from '@hm/db/entities';
import type { DomainError } from './errors.js';
import type { ImageStore } from './images/image-store.js';

export type ApiMode = 'test' | 'live';
export type KeyKind = 'secret' | 'publishable';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface AuthenticatedKey {
  apiKeyId: string;
  kind: KeyKind;
  marketplace: Marketplace;
}

/** What the transport hands to every procedure (built by apps/api for REST, tRPC and the console). */
export interface Context {
  orm: MikroORM;
  mode: ApiMode;
  clock: Clock;
  transport: 'rest' | 'trpc' | 'console';
  requestId: string;
  /** The API key, already resolved by the transport (once per request), or why it failed. */
  auth: AuthenticatedKey | DomainError | undefined;
  sessionToken: string | undefined;
  /** public URL of the API (image URLs in responses) */
  publicUrl: string;
  /** where listing photos are kept */
  images: ImageStore;
}

/** The context inside a procedure that needs a key: marketplace known, entity manager scoped to it. */
export interface KeyContext extends Context {
  em: EntityManager;
  marketplace: Marketplace;
  apiKey: { id: string; kind: KeyKind };
}

/** Inside `/v1/me…` procedures: the signed-in user and their session. */
export interface UserContext extends KeyContext {
  user: User;
  session: Session;
}

/** What domain commands need: deliberately free of tRPC and HTTP. */
export interface CommandContext {
  em: EntityManager;
  marketplace: Marketplace;
  clock: Clock;
}

/** A command acting for a signed-in user (their own listings, …). */
export interface UserCommandContext extends CommandContext {
  user: User;
}
