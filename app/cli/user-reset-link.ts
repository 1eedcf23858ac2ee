/**
 * Prints a one-hour, single-use password reset link for an account, for the host to pass on when
 * the site sends no e-mail (no SMTP_URL):
 *   npm run user:reset-link -- <email>
 * The link starts with APP_URL (else http://localhost:PORT). Uses DATABASE_URL.
 */
// the settings file (.env) before any module reads the environment
import './load-env.js';
import { ensureMigrated, getDatabase } from '../db/client.server';
import { createResetLink } from '../services/account.server';

async function main() {
  const [email] = process.argv.slice(2).filter((a) => a !== '--');
  if (!email) {
    console.error('Usage: npm run user:reset-link -- <email>');
    process.exitCode = 2;
    return;
  }
  await ensureMigrated();
  try {
    const link = await createResetLink(email);
    if (!link) {
      console.error(`No account with the e-mail ${email}.`);
      process.exitCode = 1;
      return;
    }
    console.log(`Password reset link for ${link.email} (works once, for one hour):\n${link.url}`);
  } finally {
    getDatabase().close();
  }
}

await main();
