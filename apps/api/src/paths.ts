import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (relative settings such as DATA_DIR resolve against it, wherever npm runs). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
