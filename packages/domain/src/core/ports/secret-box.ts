/**
 * SecretBox port: seals secrets we must use again later (webhook signing secrets) under a key kept
 * outside the database, so a copy of the database alone cannot sign (as the idempotency records are
 * sealed with secrets never stored). `bind` (the row's identity) is authenticated with the sealed
 * value, so it cannot be moved to another row.
 */
export interface SecretBox {
  seal(plain: string, bind: string): Buffer;
  /** the secret, or an error when the box's key is not the one it was sealed with */
  open(sealed: Buffer, bind: string): string;
}
