import { sql } from 'drizzle-orm';
import { db } from '~/db/index.server';

/** Health check for Fly: answers 200 only when the database answers. */
export async function loader() {
  try {
    await db().run(sql`select 1`);
    return new Response('OK', { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    console.error('health check failed', error);
    return new Response('database unavailable', { status: 503 });
  }
}
