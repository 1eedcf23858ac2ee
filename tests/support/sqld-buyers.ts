/**
 * One app process of the two-process no-oversell test: checks out every buyer named in BUYERS at
 * once against DATABASE_URL (a libSQL server) and prints what happened as JSON.
 */
import { checkout } from '../../app/services/orders.server';
import { isAppError } from '../../app/services/errors';

const buyers = (process.env.BUYERS ?? '').split(',').filter(Boolean);
const results = await Promise.allSettled(buyers.map((id) => checkout({ id, role: 'player' }, {})));
const summary = { sold: 0, refused: 0, messages: [] as string[], unexpected: [] as string[] };
for (const r of results) {
  if (r.status === 'fulfilled') summary.sold++;
  else if (isAppError(r.reason) && r.reason.status === 409) {
    summary.refused++;
    summary.messages.push(r.reason.message);
  } else summary.unexpected.push(String(r.reason?.message ?? r.reason));
}
process.stdout.write(JSON.stringify(summary));
process.exit(0);
