import { sql } from 'drizzle-orm';
import { db } from '~/db/index.server';

/** True when the database answers a trivial query (the health check's one question). */
export async function databaseAnswers(): Promise<boolean> {
  try {
    await db().run(sql`select 1`);
    return true;
  } catch (error) {
    console.error('health check failed', error);
    return false;
  }
}
