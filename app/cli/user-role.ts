/**
 * Changes a user's role from the command line (the machine's operator is trusted):
 *   npm run user:role -- <email> <role>
 * Roles: player, manager, assistant_coach, vendor, admin, super_admin. Uses DATABASE_URL.
 */
// the settings file (.env) before any module reads the environment
import './load-env.js';
import { ensureMigrated, getDatabase } from '../db/client.server';
import { isAppError } from '../services/errors';
import { setRoleByEmail } from '../services/users.server';
import { ROLES } from '../utils/constants';

async function main() {
  const [email, role] = process.argv.slice(2).filter((a) => a !== '--');
  if (!email || !role) {
    console.error(`Usage: npm run user:role -- <email> <role>\nRoles: ${ROLES.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  await ensureMigrated();
  try {
    const { user, previous } = await setRoleByEmail(email, role);
    console.log(previous === user.role ? `${user.email} already has the role ${user.role}.` : `${user.email}: ${previous} -> ${user.role}`);
  } catch (error) {
    if (isAppError(error)) {
      console.error(error.message);
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    getDatabase().close();
  }
}

await main();
