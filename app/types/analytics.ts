/** The admin analytics report (services/admin/analytics.server.ts) and its charts. */
export type Interval = 'day' | 'week' | 'month';

export interface AnalyticsQuery {
  interval: Interval;
  /** YYYY-MM-DD, inclusive */
  from: string;
  to: string;
}

/** One bucket of a series: its key ('YYYY-MM-DD', the Monday of a week, or 'YYYY-MM'). */
export interface Bucket {
  key: string;
  value: number;
  /** orders: their total in dollars */
  amount?: number;
  /** identifications: how many found their pin */
  matched?: number;
}

export interface TopPin {
  id: string;
  name: string;
  count: number;
}

export interface AnalyticsReport {
  query: AnalyticsQuery;
  identifications: Bucket[];
  newUsers: Bucket[];
  collections: Bucket[];
  orders: Bucket[];
  topIdentified: TopPin[];
  topCollected: TopPin[];
  success: { total: number; matched: number; rate: number | null };
}

/** A chart drawn on the server: its SVG geometry, ready to render. */
export interface ChartGeometry {
  width: number;
  height: number;
  /** the line and the area under it */
  line: string;
  area: string;
  /** the bars, for a bar chart */
  bars: { x: number; y: number; width: number; height: number; key: string; value: number }[];
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  plot: { left: number; top: number; right: number; bottom: number };
}
