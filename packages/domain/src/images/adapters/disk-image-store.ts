import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SAFE_KEY, type ImageStore } from '../../core/ports/image-store.js';

const TYPES: Record<string, string> = { '.jpg': 'image/jpeg' };

/**
 * The offline default: files under a folder (DATA_DIR/images). Writes are atomic (temp file +
 * rename): a stream that fails halfway leaves no file, not even the temp file.
 */
export function diskImageStore(root: string): ImageStore {
  const file = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`not an image key: ${key}`);
    return path.join(root, key);
  };
  return {
    name: 'disk',
    async put(key, body) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        await writeFile(tmp, body);
        await rename(tmp, target);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async get(key) {
      try {
        const body = await readFile(file(key));
        return { body, contentType: TYPES[path.extname(key)] ?? 'application/octet-stream' };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((k) => rm(file(k), { force: true })));
    },
  };
}
