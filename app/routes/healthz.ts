import { json } from '@remix-run/node';
import { databaseAnswers } from '~/services/health.server';
import { identificationIndexStatus } from '~/services/identification/index.server';

/**
 * Health check for Fly: 200 as soon as the web answers (pages need only the database), so checks
 * pass during a restart; the identification index's state is reported beside it (`loading`,
 * `building`, `ready`, `failed`), identify answering 503 "warming up" until it is ready.
 */
export async function loader() {
  const identification = identificationIndexStatus();
  const headers = { 'Cache-Control': 'no-store' };
  if (await databaseAnswers()) return json({ status: 'ok', web: 'ready', identification }, { headers });
  return json({ status: 'database unavailable', web: 'unavailable', identification }, { status: 503, headers });
}
