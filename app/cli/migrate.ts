/** npm run db:migrate: applies pending migrations to DATABASE_URL (default file:./data/pindex.db). */
// the settings file (.env) before any module reads the environment
import './load-env.js';
import { openDatabase } from '../db/client.server';

const handle = openDatabase();
await handle.migrate();
console.log(`Database migrated (${handle.driver}: ${handle.url})`);
handle.close();
