import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { adminPageUser } from '~/http/guards.server';
import { getAnalytics, readAnalyticsQuery } from '~/services/admin/analytics.server';
import { barChart, lineChart } from '~/services/admin/charts.server';

// Signed out: the layout shows the prompt; other roles are sent to / by the guard.
export async function adminAnalyticsLoader({ request }: LoaderFunctionArgs) {
  const actor = await adminPageUser(request);
  const query = readAnalyticsQuery(new URL(request.url).searchParams);
  try {
    const report = await getAnalytics(actor, query);
    return json({
      state: 'ok' as const,
      report,
      charts: {
        identifications: lineChart(report.identifications),
        newUsers: lineChart(report.newUsers),
        collections: lineChart(report.collections),
        orders: lineChart(report.orders),
        topIdentified: barChart(report.topIdentified),
        topCollected: barChart(report.topCollected),
      },
    });
  } catch (error) {
    console.error(error);
    return json({ state: 'error' as const }, { status: 500 });
  }
}
