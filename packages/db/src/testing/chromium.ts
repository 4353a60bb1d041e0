import { accessSync, constants } from 'node:fs';

/** Where the browser tests find Chromium: `CHROMIUM_PATH`, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The Chromium binary the browser tests drive, checked before anything starts: a machine without it
 * fails at once with one line that says what to install, instead of a launch error minutes later.
 */
export function requireChromium(path = CHROMIUM_PATH): string {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`No Chromium at ${path}: the browser tests need it — install it (Debian/Ubuntu: \`sudo apt-get install chromium\`) or set CHROMIUM_PATH to a Chromium or Chrome binary.`);
  }
  return path;
}
