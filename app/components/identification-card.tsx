import type { IdentificationResult } from '~/types/identification';
import { headline, nearIdenticalOf } from '~/utils/identification';

// The home page's result card lives apart from the full result (identification-result.tsx), so the
// home page does not load the form libraries that only /identify needs. The identifier loads it
// when a result comes (a result exists only in the browser).

type Result = IdentificationResult;

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
      <div className="space-y-3 pr-8">
        <div className="min-w-0 space-y-1">
          {result.identified && result.pin ? (
            // the toast already says 'Pin Identified!': the card's title is the pin itself
            <>
              <h2 className="text-lg font-bold text-slate-900">{result.pin.name}</h2>
              <p className="text-sm text-brand-700">Identified with {result.confidence}% confidence</p>
            </>
          ) : (
            <>
              <h2 className="text-lg font-bold text-slate-900">{headline(result)}</h2>
              <p className="text-sm text-slate-700">{result.message}</p>
            </>
          )}
          {result.serviceUnavailable ? <p className="text-xs text-amber-700">{result.message}</p> : null}
        </div>
      </div>
      {/* your photo beside the catalogue's picture, so the match can be checked by eye */}
      <div className="grid grid-cols-2 gap-3">
        <ComparedPicture src={`${result.imageData}?s=thumb`} label="Your photo" />
        {result.identified && result.pin ? (
          <ComparedPicture src={result.pin.thumbnail} label="Catalogue picture" alt={result.pin.name} />
        ) : null}
      </div>
      {!result.identified && result.similarPins.length ? (
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-700">{ambiguous ? 'Candidates' : 'Similar pins'}</p>
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="card-candidates">
            {(ambiguous ? nearIdenticalOf(result.similarPins) : result.similarPins).map((s) => (
              <li key={s.pin.id} className="rounded-md border border-slate-200 bg-white p-1">
                {s.pin.thumbnail ? (
                  <img src={s.pin.thumbnail} alt={s.pin.name} width={160} height={160} loading="lazy" className="aspect-square w-full object-contain" />
                ) : (
                  <div className="aspect-square w-full bg-slate-50" aria-hidden="true" />
                )}
                <p className="line-clamp-2 px-1 pt-1 text-xs font-medium text-slate-800">{s.pin.name}</p>
                <p className="px-1 text-xs text-brand-700">{s.matchScore}% match</p>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <button type="button" className="btn-primary w-full" onClick={onViewFull}>
        View Full Results
      </button>
    </section>
  );
}


/** One of the two pictures compared side by side (square, the whole picture shown). */
export function ComparedPicture({ src, label, alt }: { src: string | null; label: string; alt?: string }) {
  return (
    <figure className="overflow-hidden rounded-md border border-slate-200 bg-white">
      {src ? (
        <img src={src} alt={alt ?? label} width={320} height={320} className="aspect-square w-full object-contain" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center bg-slate-50 text-xs text-slate-400">No picture yet</div>
      )}
      <figcaption className="border-t border-slate-100 px-2 py-1 text-xs text-slate-500">{label}</figcaption>
    </figure>
  );
}
