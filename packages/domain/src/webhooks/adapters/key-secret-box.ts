import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SecretBox } from '../../core/ports/secret-box.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM under a 32-byte key: iv ‖ tag ‖ ciphertext, `bind` authenticated. */
export function keySecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be 32 bytes (base64 of 32 random bytes).');
  return {
    seal(plain, bind) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(bind));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed, bind) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES)).setAAD(Buffer.from(bind));
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('A webhook secret does not open with this secrets key (WEBHOOK_SECRETS_KEY or the key file changed): rotate the endpoint secret.');
      }
    },
  };
}

/** The offline default: a key file made once under the data directory (mode 0600), never in the database. */
export function fileSecretBox(file: string): SecretBox {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // written aside, then linked in place: a process starting at the same time finds a whole key or none
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, randomBytes(32).toString('base64'), { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(tmp);
    }
  }
  return keySecretBox(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
}
