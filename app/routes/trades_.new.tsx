import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FieldError, FormErrors } from '~/components/ui/field';
import { Button, buttonClass } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/empty-state';
import { TRADE_EXPIRY_DAYS, TRADE_NOTE_MAX } from '~/utils/trades';
import { tradeProposalLoader, tradeProposalAction } from '~/http/trade-proposal-page.server';
import type { TradePin } from '~/types/trades';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Propose a trade | PinDex' }];

export const loader = tradeProposalLoader;
export const action = tradeProposalAction;

function PinChoices({ name, legend, pins, checked, error, empty, wantedLabel }: { name: string; legend: string; wantedLabel: string; pins: (TradePin & { wanted: boolean })[]; checked: (p: TradePin & { wanted: boolean }) => boolean; error?: { errors?: string[]; errorId: string }; empty: string }) {
  return (
    <fieldset className="card min-w-0 p-4" aria-describedby={error?.errors?.length ? error.errorId : undefined}>
      <legend className="px-1 text-sm font-semibold text-slate-800">{legend}</legend>
      {pins.length ? (
        <ul className="mt-2 space-y-2">
          {pins.map((p) => (
            <li key={p.id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-200 p-2 hover:bg-slate-50">
                <input type="checkbox" name={name} value={p.id} defaultChecked={checked(p)} className="h-4 w-4 shrink-0" />
                {p.thumbnail ? <img src={p.thumbnail} alt="" width={40} height={40} loading="lazy" className="h-10 w-10 shrink-0 rounded object-cover" /> : <span aria-hidden="true" className="h-10 w-10 shrink-0 rounded bg-slate-100" />}
                <span className="min-w-0 flex-1 truncate text-sm">{p.name}</span>
                {p.wanted ? <span className="badge shrink-0 bg-green-100 text-green-800">{wantedLabel}</span> : null}
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-500">{empty}</p>
      )}
      {error ? <FieldError field={error} /> : null}
    </fieldset>
  );
}

export default function ProposeTrade() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.lastResult as SubmissionResult<string[]> | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({ id: 'propose-trade', lastResult });
  // after a refused post (no JavaScript), keep what was ticked
  const submitted = lastResult?.initialValue as Record<string, unknown> | undefined;
  const was = (key: string) => {
    const v = submitted?.[key];
    return new Set(Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
  };
  const checked = (key: 'give' | 'receive') => (p: TradePin & { wanted: boolean }) => (submitted ? was(key).has(p.id) : p.wanted);
  const counter = data.counterTo;
  const title = counter ? `Counter-offer to ${data.partner.name}` : `Propose a trade to ${data.partner.name}`;

  if (!data.mine.length || !data.theirs.length) {
    return (
      <div className="mx-auto max-w-2xl space-y-4">
        <h1 className="text-2xl font-bold">{title}</h1>
        <EmptyState
          title={!data.mine.length ? 'Your trading list is empty' : `${data.partner.name} has no pins up for trade`}
          description={!data.mine.length ? 'Put some pins up for trade in your collection first.' : 'Come back when they add pins to their trading list.'}
          action={
            <Link to={!data.mine.length ? '/collection' : '/trades'} className={buttonClass('primary')}>
              {!data.mine.length ? 'Go to My Collection' : 'Back to Trades'}
            </Link>
          }
        />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div>
        <Link to="/trades" className="text-sm text-brand-700 hover:underline">
          ← Back to Trades
        </Link>
        <h1 className="mt-2 text-2xl font-bold">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">Pins they want and pins you want are ticked for you. They have {TRADE_EXPIRY_DAYS} days to answer.</p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="recipientId" value={data.partner.id} />
        {counter ? <input type="hidden" name="counterTo" value={counter.id} /> : null}
        <div className="grid gap-4 md:grid-cols-2">
          <PinChoices name="give" legend="You give (your trading list)" pins={data.mine} checked={checked('give')} error={fields.give} wantedLabel="They want" empty="Your trading list is empty." />
          <PinChoices name="receive" legend={`You receive (${data.partner.name}'s trading list)`} pins={data.theirs} checked={checked('receive')} error={fields.receive} wantedLabel="You want" empty="Nothing up for trade." />
        </div>
        <div className="card p-4">
          <label htmlFor={fields.note.id} className="label">
            Note (optional)
          </label>
          <textarea {...getTextareaProps(fields.note)} rows={3} maxLength={TRADE_NOTE_MAX} className="input mt-1 w-full" placeholder="Say hello, or where you can meet to swap" />
          <FieldError field={fields.note} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="primary" pending={navigation.state === 'submitting'} pendingLabel="Sending...">
            {counter ? 'Send counter-offer' : 'Send proposal'}
          </Button>
          <Link to="/trades" className={buttonClass('secondary')}>
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}
