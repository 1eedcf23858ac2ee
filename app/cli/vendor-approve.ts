/**
 * Approves a vendor application from the command line (the machine's operator is trusted):
 *   npm run vendor:approve -- <email> [notes]
 * The account gets the vendor role (an admin keeps theirs). Uses DATABASE_URL.
 */
// the settings file (.env) before any module reads the environment
import './load-env.js';
import { ensureMigrated, getDatabase } from '../db/client.server';
import { isAppError } from '../services/errors';
import { approveVendorByEmail } from '../services/vendor-review.server';

async function main() {
  const [email, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  if (!email) {
    console.error('Usage: npm run vendor:approve -- <email> [notes]');
    process.exitCode = 2;
    return;
  }
  await ensureMigrated();
  try {
    const { vendor, previous } = await approveVendorByEmail(email, rest.join(' ') || undefined);
    console.log(`${vendor.businessName} (${email}): ${previous} -> ${vendor.applicationStatus}`);
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
