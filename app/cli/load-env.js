/**
 * Imported first by the server and the operator's commands: reads the settings file before any
 * module looks at the environment (env-file.js). A file that cannot be read stops the command.
 */
import { loadEnvFile } from './env-file.js';

try {
  loadEnvFile();
} catch (error) {
  console.error(`PinDex will not start: ${/** @type {Error} */ (error).message}`);
  process.exit(1);
}
