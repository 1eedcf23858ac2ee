import { databaseAnswers } from '~/services/health.server';

/** Health check for Fly: answers 200 only when the database answers. */
export async function loader() {
  if (await databaseAnswers()) return new Response('OK', { headers: { 'Cache-Control': 'no-store' } });
  return new Response('database unavailable', { status: 503 });
}
