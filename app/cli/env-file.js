/**
 * The settings file: `.env` in the working directory, read when the server or an operator's
 * command (migrate, import, user and vendor tools) starts, so that a self-hoster can keep
 * DATABASE_URL, SESSION_SECRET and the rest in one file, as `.env.example` shows.
 *
 * A variable already set in the environment wins over the file. ENV_FILE chooses another file
 * (which must then exist), or `off` reads none: the tests and `npm run demo` set it, so that a
 * developer's own settings do not reach their servers. glibc's MALLOC_* settings are read before
 * any of this runs, so they belong in the environment, not in the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Reads the settings file into `env` (variables already there are kept).
 * @param {Record<string, string | undefined>} env
 * @param {string} cwd
 * @returns {{ file: string, keys: string[] } | null} the file read and the variables it set, or null when none was read
 */
export function loadEnvFile(env = process.env, cwd = process.cwd()) {
  const chosen = env.ENV_FILE?.trim();
  if (chosen === 'off') return null;
  const file = path.resolve(cwd, chosen || '.env');
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (!chosen && code === 'ENOENT') return null;
    throw new Error(`cannot read the settings file ${chosen || '.env'} (${code ?? String(error)})`);
  }
  const keys = [];
  for (const [key, value] of Object.entries(parseEnv(text))) {
    if (env[key] !== undefined || value === undefined) continue;
    env[key] = value;
    keys.push(key);
  }
  return { file, keys };
}
