import type { IdentificationResult } from '~/types/identification';
import { nearIdenticalOf } from '~/utils/identification';

// The home page's result card lives apart from the full result (identification-result.tsx), so the
// home page does not load the form libraries that only /identify needs.

type Result = IdentificationResult;

export function headline(result: Result): string {
  if (result.identified && result.pin) return 'Pin Identified!';
  if (result.outcome === 'ambiguous') return 'Which one is yours?';
  return 'No Match Found';
}

/** The home page's result card: it replaces the identifier until closed. */
export function IdentificationCard({ result, onClose, onViewFull }: { result: Result; onClose: () => void; onViewFull: () => void }) {
  const ambiguous = result.outcome === 'ambiguous';
  return (
    <section className="card relative space-y-3 p-4" aria-label="Identification result" data-testid="identification-card">
      <button type="button" onClick={onClose} aria-label="Close" className="absolute right-3 top-3 rounded-full p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
      <div className="flex gap-4">
        <img src={result.pin?.thumbnail ?? `${result.imageData}?s=thumb`} alt={result.pin?.name ?? 'Your photo'} width={96} height={96} className="h-24 w-24 shrink-0 rounded-md bg-white object-contain" />
        <div className="min-w-0 space-y-1 pr-6">
          <h2 className="text-lg font-bold text-slate-900">{headline(result)}</h2>
          {result.identified && result.pin ? (
            <>
              <p className="font-semibold text-slate-900">{result.pin.name}</p>
              <p className="text-sm text-brand-700">{result.confidence}% confidence</p>
            </>
          ) : (
            <p className="text-sm text-slate-700">{result.message}</p>
          )}
          {result.serviceUnavailable ? <p className="text-xs text-amber-700">{result.message}</p> : null}
        </div>
      </div>
      {!result.identified && result.similarPins.length ? (
        <p className="text-sm text-slate-600">
          {ambiguous ? 'Candidates' : 'Similar pins'}: {(ambiguous ? nearIdenticalOf(result.similarPins) : result.similarPins).map((s) => s.pin.name).join(', ')}
        </p>
      ) : null}
      <button type="button" className="btn-primary w-full" onClick={onViewFull}>
        View Full Results
      </button>
    </section>
  );
}

