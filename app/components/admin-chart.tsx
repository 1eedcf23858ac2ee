/** An SVG chart whose geometry the server computed (services/admin/charts.server.ts), beside its numbers. */
import type { ReactNode } from 'react';
import type { ChartGeometry } from '~/types/analytics';

export function Chart({ title, geometry, children, id }: { title: string; geometry: ChartGeometry; children: ReactNode; id?: string }) {
  const { width, height, plot } = geometry;
  return (
    <section id={id} className="card p-4" aria-labelledby={`${id ?? title}-title`}>
      <h2 id={`${id ?? title}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title} chart (the table beside it has the numbers)`} className="h-auto w-full">
          {geometry.yTicks.map((t) => (
            <g key={`y${t.label}`}>
              <line x1={plot.left} x2={plot.right} y1={t.y} y2={t.y} stroke="#e2e8f0" />
              <text x={plot.left - 6} y={t.y + 4} textAnchor="end" fontSize="11" fill="#64748b">
                {t.label}
              </text>
            </g>
          ))}
          {geometry.area ? <path d={geometry.area} fill="#dbeafe" /> : null}
          {geometry.line ? <path d={geometry.line} fill="none" stroke="#1d4ed8" strokeWidth="2" /> : null}
          {geometry.bars.map((b) => (
            <rect key={b.key} x={b.x} y={b.y} width={b.width} height={Math.max(0, b.height)} fill="#1d4ed8" rx="2">
              <title>{`${b.key}: ${b.value}`}</title>
            </rect>
          ))}
          {geometry.xTicks.map((t, i) => (
            <text key={`x${i}`} x={t.x} y={plot.bottom + 16} textAnchor="middle" fontSize="11" fill="#64748b">
              {t.label}
            </text>
          ))}
          <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} stroke="#94a3b8" />
        </svg>
        <div className="max-h-64 overflow-auto">{children}</div>
      </div>
    </section>
  );
}

/** The numbers of a chart, as a table. */
export function NumbersTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: ReactNode[][] }) {
  return (
    <table className="min-w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="sticky top-0 bg-slate-50 text-left text-slate-700">
        <tr>
          {headers.map((h) => (
            <th key={h} scope="col" className="px-2 py-1">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((cells, i) => (
          <tr key={i}>
            {cells.map((c, j) =>
              j === 0 ? (
                <th key={j} scope="row" className="px-2 py-1 text-left font-normal">
                  {c}
                </th>
              ) : (
                <td key={j} className="px-2 py-1 text-right tabular-nums">
                  {c}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
