/** A labelled 0-100% bar (badge progress, daily challenges). */
export function ProgressBar({ label, percent, done = false }: { label: string; percent: number; done?: boolean }) {
  return (
    <div
      className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div className={`h-full rounded-full ${done ? 'bg-emerald-600' : 'bg-brand-600'}`} style={{ width: `${percent}%` }} />
    </div>
  );
}
