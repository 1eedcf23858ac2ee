import type { MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigate } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { IdentificationDetails, PhotoTips } from '~/components/identification-result';
import { Identifier, RESULT_STORAGE_KEY } from '~/components/identifier';
import { type IdentificationResult } from '~/services/identification/identify.server';
import { identifyPageLoader, identifyPageAction, type ActionData } from '~/http/identify-page.server';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Identify Your Pin · PinDex' }];

export const loader = identifyPageLoader;
export const action = identifyPageAction;

export default function IdentifyPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigate = useNavigate();
  const [stored, setStored] = useState<IdentificationResult | null>(null);

  // the home page's 'View Full Results' hands the result over in session storage
  useEffect(() => {
    if (data.result) return;
    let raw: string | null = null;
    try {
      raw = sessionStorage.getItem(RESULT_STORAGE_KEY);
      if (raw) sessionStorage.removeItem(RESULT_STORAGE_KEY);
    } catch {
      return;
    }
    if (!raw) return;
    try {
      const parsed = JSON.parse(raw) as IdentificationResult;
      if (!parsed || typeof parsed !== 'object' || !parsed.analysis) return;
      setStored(parsed);
      // the stored row renders on the server from here on (forms post back to this URL)
      if (parsed.identificationId) navigate(`/identify?result=${encodeURIComponent(parsed.identificationId)}`, { replace: true });
    } catch {
      // not ours: ignore
    }
  }, [data.result, navigate]);

  const result = (data.result as IdentificationResult | null) ?? stored;
  const identifyError = actionData && actionData.intent === 'identify' ? actionData.error : null;
  const chooseError = actionData && actionData.intent === 'choosePin' ? actionData.error : null;

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-3xl font-bold text-slate-900">Identify Your Pin</h1>
        <p className="mt-1 text-slate-600">Take a photo or upload one: we match it against every pin in our database.</p>
      </header>

      {data.warmingUp && !identifyError ? (
        <div role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-semibold">Identification is warming up</p>
          <p>The server has just started and is loading the pin catalogue. Try again in a few seconds.</p>
        </div>
      ) : null}
      {identifyError ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-semibold">{identifyError.title}</p>
          {identifyError.description ? <p>{identifyError.description}</p> : null}
        </div>
      ) : null}
      {chooseError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {chooseError}
        </p>
      ) : null}
      {data.missing ? (
        <p role="alert" className="card p-4 text-slate-700">
          This identification result is no longer available. Identify your pin again below.
        </p>
      ) : null}

      {result ? (
        <>
          <IdentificationDetails
            result={result}
            viewer={data.viewer}
            collectionResult={actionData?.intent === 'addToCollection' ? actionData.lastResult : undefined}
            newPinResult={actionData?.intent === 'createPin' || actionData?.intent === 'suggestPin' ? actionData.lastResult : undefined}
            organizations={data.organizations}
          />
          <section aria-labelledby="again-heading" className="max-w-xl space-y-3">
            <h2 id="again-heading" className="text-xl font-bold text-slate-900">
              Identify another pin
            </h2>
            <Identifier mode="page" />
          </section>
        </>
      ) : (
        <div className="grid gap-6 md:grid-cols-2">
          <div className="space-y-3">
            <Identifier mode="page" />
            <p className="text-sm text-slate-600">
              Looking for something specific?{' '}
              <Link to="/browse" className="font-medium text-brand-700 hover:underline">
                Browse the pin database
              </Link>
            </p>
          </div>
          <PhotoTips />
        </div>
      )}
    </div>
  );
}
