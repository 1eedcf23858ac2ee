import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { AdminHeader, LoadError } from '~/components/admin';
import { Chart, NumbersTable } from '~/components/admin-chart';
import { Button } from '~/components/ui/button';
import { StatCard } from '~/components/ui/stat-card';
import type { Bucket } from '~/types/analytics';
import { formatCount, formatMoney } from '~/utils/format';
import { adminAnalyticsLoader } from '~/http/admin-analytics-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Analytics | PinDex Admin' }];

export const loader = adminAnalyticsLoader;

const bucketLabel = (key: string) => (key.length === 7 ? key : key);

function seriesRows(series: Bucket[]) {
  return [...series].reverse().map((b) => [bucketLabel(b.key), formatCount(b.value)]);
}

export default function AdminAnalytics() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Analytics" />
        <LoadError title="Failed to load analytics" message="Please try again." />
      </div>
    );
  }
  const { report, charts } = data;
  const { query, success } = report;
  const sum = (s: Bucket[]) => s.reduce((n, b) => n + b.value, 0);
  const per = query.interval === 'day' ? 'Day' : query.interval === 'week' ? 'Week of' : 'Month';
  return (
    <div className="space-y-6">
      <AdminHeader title="Analytics" subtitle={`${query.from} to ${query.to}, by ${query.interval}`} />
      <Form method="get" className="card flex flex-wrap items-end gap-3 p-3" aria-label="Range and interval">
        <div>
          <label htmlFor="an-from" className="label">
            From
          </label>
          <input id="an-from" type="date" name="from" defaultValue={query.from} key={`f${query.from}`} className="input" />
        </div>
        <div>
          <label htmlFor="an-to" className="label">
            To
          </label>
          <input id="an-to" type="date" name="to" defaultValue={query.to} key={`t${query.to}`} className="input" />
        </div>
        <div>
          <label htmlFor="an-interval" className="label">
            Interval
          </label>
          <select id="an-interval" name="interval" defaultValue={query.interval} key={`i${query.interval}`} className="input">
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </div>
        <Button variant="primary">Show</Button>
        <Link to="/admin/analytics" className="text-sm font-semibold text-brand-700 hover:underline">
          Last 30 days
        </Link>
      </Form>

      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Identifications" value={sum(report.identifications)} valueTestId="an-identifications" />
        <StatCard
          label="Identification success rate"
          value={success.rate == null ? '-' : `${Math.round(success.rate * 1000) / 10}%`}
          hint={`${formatCount(success.matched)} of ${formatCount(success.total)} photos found their pin`}
          valueTestId="an-success"
        />
        <StatCard label="New users" value={sum(report.newUsers)} />
        <StatCard label="Orders" value={sum(report.orders)} hint={formatMoney(report.orders.reduce((n, b) => n + (b.amount ?? 0), 0))} />
      </dl>

      <Chart title="Identifications" geometry={charts.identifications} id="identifications">
        <NumbersTable caption="Identifications" headers={[per, 'Identifications']} rows={seriesRows(report.identifications)} />
      </Chart>
      <Chart title="New users" geometry={charts.newUsers} id="users">
        <NumbersTable caption="New users" headers={[per, 'New users']} rows={seriesRows(report.newUsers)} />
      </Chart>
      <Chart title="Collection activity" geometry={charts.collections} id="collections">
        <NumbersTable caption="Collection entries added" headers={[per, 'Entries added']} rows={seriesRows(report.collections)} />
      </Chart>
      <Chart title="Orders" geometry={charts.orders} id="orders">
        <NumbersTable caption="Orders" headers={[per, 'Orders', 'Total']} rows={[...report.orders].reverse().map((b) => [b.key, formatCount(b.value), formatMoney(b.amount ?? 0)])} />
      </Chart>
      <Chart title="Top identified pins" geometry={charts.topIdentified} id="top-identified">
        {report.topIdentified.length ? (
          <NumbersTable caption="Top identified pins" headers={['#', 'Pin', 'Identifications']} rows={report.topIdentified.map((p, i) => [String(i + 1), p.name, formatCount(p.count)])} />
        ) : (
          <p className="text-sm text-slate-600">No pin was identified in this range.</p>
        )}
      </Chart>
      <Chart title="Top collected pins" geometry={charts.topCollected} id="top-collected">
        {report.topCollected.length ? (
          <NumbersTable caption="Top collected pins" headers={['#', 'Pin', 'Collectors']} rows={report.topCollected.map((p, i) => [String(i + 1), p.name, formatCount(p.count)])} />
        ) : (
          <p className="text-sm text-slate-600">No pin is in a collection yet.</p>
        )}
      </Chart>
    </div>
  );
}
