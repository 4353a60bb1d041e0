import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, updatedAt } from './common.js';

export const OPERATOR_ROLES = ['admin', 'viewer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A member of the marketplace's team in the back-office console (issue 26). */
export const OperatorSchema = defineEntity({
  name: 'Operator',
  tableName: 'operators',
  properties: {
    ...tenantColumns(),
    email: p.string(),
    role: p.enum(OPERATOR_ROLES),
    /** argon2id (PHC string); null until the invitation is accepted */
    passwordHash: p.string().nullable(),
    /** base32 TOTP secret: set at enrolment, in use once confirmed (`totpEnabledAt`) */
    totpSecret: p.string().nullable(),
    totpEnabledAt: p.datetime().nullable(),
    /** the last 30-second step a code was accepted for: a code works once */
    totpLastStep: p.bigint('number').nullable(),
    updatedAt: updatedAt(),
  },
});
export type Operator = InferEntity<typeof OperatorSchema>;

/** An operator's signed-in session; only the token's SHA-256 is stored. */
export const OperatorSessionSchema = defineEntity({
  name: 'OperatorSession',
  tableName: 'operator_sessions',
  properties: {
    ...tenantColumns(),
    operatorId: p.uuid(),
    tokenHash: p.string(),
    lastUsedAt: p.datetime(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
});
export type OperatorSession = InferEntity<typeof OperatorSessionSchema>;

/** An emailed invitation to set a password; only the token's SHA-256 is stored. */
export const OperatorInvitationSchema = defineEntity({
  name: 'OperatorInvitation',
  tableName: 'operator_invitations',
  properties: {
    ...tenantColumns(),
    operatorId: p.uuid(),
    tokenHash: p.string(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type OperatorInvitation = InferEntity<typeof OperatorInvitationSchema>;

/** One console write or sign-in (append-only: the database refuses UPDATE and DELETE). */
export const AuditEntrySchema = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entries',
  properties: {
    ...tenantColumns(),
    actorType: p.enum(['operator', 'cli'] as const),
    actorId: p.uuid().nullable(),
    actorEmail: p.string().nullable(),
    action: p.string(),
    targetType: p.string(),
    targetId: p.string(),
    data: p.json<Record<string, unknown>>(),
    requestId: p.string(),
  },
});
export type AuditEntry = InferEntity<typeof AuditEntrySchema>;
