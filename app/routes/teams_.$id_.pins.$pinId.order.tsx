import { getFormProps, getInputProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { EmptyNote, PINS_PER_PLAYER } from '~/components/teams';
import { FieldFrame, FormErrors } from '~/components/ui/field';
import { pinOrderAction, pinOrderLoader } from '~/http/pin-order-page.server';
import { formatCount, formatDate } from '~/utils/format';
import '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Order: ${data.order.pin.name} | PinDex` : 'Pin order | PinDex' }];

/** /teams/{id}/pins/{pinId}/order: the team's order of one of its pins, and each player's share. */
export const loader = pinOrderLoader;
export const action = pinOrderAction;

export default function PinOrderPage() {
  const { order, teamName } = useLoaderData<typeof loader>();
  const back = `/teams/${order.teamId}`;
  return (
    <article className="mx-auto max-w-2xl space-y-6">
      <Link to={back} className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
        <span aria-hidden="true">←</span> Back to {teamName}
      </Link>
      <header>
        <h1 className="text-2xl font-bold text-slate-900">Pin order</h1>
        <p className="mt-1 text-slate-600">
          <Link to={`/pins/${order.pin.id}`} className="font-semibold text-brand-700 underline">
            {order.pin.name}
          </Link>{' '}
          for {teamName}. Tournaments like Cooperstown expect about {PINS_PER_PLAYER} pins a player.
        </p>
      </header>
      {order.canManage ? <OrderForm /> : <OrderSummary />}
    </article>
  );
}

function OrderSummary() {
  const { order } = useLoaderData<typeof loader>();
  if (order.quantity == null) return <EmptyNote title="No order yet">The team manager sets how many of this pin the team orders.</EmptyNote>;
  return (
    <section className="card space-y-3 p-4 sm:p-6">
      <p className="text-lg font-semibold text-slate-900">
        {formatCount(order.quantity)} ordered · {order.split === 'even' ? 'split evenly' : 'shares set by the manager'}
      </p>
      {order.updatedAt ? <p className="text-sm text-slate-600">Last changed {formatDate(order.updatedAt)}</p> : null}
      <Shares />
    </section>
  );
}

function Shares() {
  const { order } = useLoaderData<typeof loader>();
  if (order.shares.length === 0) return <EmptyNote title="No active players">Add players to the roster to split the order.</EmptyNote>;
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Each player’s share</caption>
      <thead>
        <tr className="border-b border-slate-200 text-slate-600">
          <th scope="col" className="py-2 pr-2 font-medium">#</th>
          <th scope="col" className="py-2 pr-2 font-medium">Player</th>
          <th scope="col" className="py-2 text-right font-medium">Pins</th>
        </tr>
      </thead>
      <tbody>
        {order.shares.map((s) => (
          <tr key={s.rosterId} className="border-b border-slate-100">
            <td className="py-2 pr-2 text-slate-600">{s.jerseyNumber ?? '–'}</td>
            <td className="py-2 pr-2 font-medium text-slate-900">{s.playerName}</td>
            <td className="py-2 text-right tabular-nums">{formatCount(s.quantity)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function OrderForm() {
  const { order } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting';
  // after a refused save the form shows what was sent, the chosen split included
  const lastResult = actionData?.lastResult as SubmissionResult<string[]> | undefined;
  const sent = lastResult?.initialValue?.split;
  const initialSplit = sent === 'custom' || sent === 'even' ? sent : order.split;
  const [split, setSplit] = useState<'even' | 'custom'>(initialSplit);
  // with JavaScript the shares lock while the split is even; without it they stay editable
  const locked = useHydrated() && split === 'even';
  const [form, fields] = useForm({
    id: 'pin-order',
    lastResult,
    defaultValue: { quantity: String(order.quantity ?? order.suggestedQuantity), split: order.split },
  });
  // each player's share is the field `shares.{rosterId}`: what was sent, or the current share
  const sentShares = lastResult?.initialValue?.shares;
  const shareValue = (rosterId: string, current: number) => {
    const value = sentShares && typeof sentShares === 'object' ? (sentShares as Record<string, unknown>)[rosterId] : undefined;
    return lastResult?.initialValue ? (typeof value === 'string' ? value : '') : String(current);
  };
  const qtyProps = getInputProps(fields.quantity, { type: 'number' });
  const qtyKey = fields.quantity.key;
  return (
    <Form method="post" {...getFormProps(form)} className="card space-y-5 p-4 sm:p-6">
      <FormErrors title="Error saving order" errors={[...(form.errors ?? []), ...(fields.shares.errors ?? [])]} id={form.errorId} />
      <FieldFrame label="Quantity ordered" field={fields.quantity} description={`${PINS_PER_PLAYER} a player for ${order.shares.length} active ${order.shares.length === 1 ? 'player' : 'players'} is ${formatCount(order.suggestedQuantity)}.`}>
        <input key={qtyKey} {...qtyProps} className="input max-w-[12rem]" min={1} step={1} inputMode="numeric" aria-describedby={fields.quantity.descriptionId} />
      </FieldFrame>
      <fieldset className="space-y-2">
        <legend className="label">How the pins are shared</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="split" value="even" checked={split === 'even'} onChange={() => setSplit('even')} className="h-4 w-4" />
          Split evenly among the active players
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="split" value="custom" checked={split === 'custom'} onChange={() => setSplit('custom')} className="h-4 w-4" />
          Set each player’s share (the shares must add up to the order)
        </label>
      </fieldset>
      {order.shares.length === 0 ? (
        <EmptyNote title="No active players">Add players to the roster to split the order.</EmptyNote>
      ) : (
        <table className="w-full text-left text-sm" data-split={split}>
          <caption className="sr-only">Each player’s share</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-2 pr-2 font-medium">#</th>
              <th scope="col" className="py-2 pr-2 font-medium">Player</th>
              <th scope="col" className="py-2 text-right font-medium">Pins</th>
            </tr>
          </thead>
          <tbody>
            {order.shares.map((s) => {
              const f = fields[`shares.${s.rosterId}`];
              const props = getInputProps(f, { type: 'number', value: false });
              return (
                <tr key={s.rosterId} className="border-b border-slate-100">
                  <td className="py-2 pr-2 text-slate-600">{s.jerseyNumber ?? '–'}</td>
                  <td className="py-2 pr-2 font-medium text-slate-900">
                    <label htmlFor={f.id}>{s.playerName}</label>
                  </td>
                  <td className="py-1 text-right">
                    <input key={f.key} {...props} defaultValue={shareValue(s.rosterId, s.quantity)} min={0} step={1} inputMode="numeric" readOnly={locked} className={`input ml-auto w-24 text-right tabular-nums ${locked ? 'bg-slate-50 text-slate-500' : ''}`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p className="text-xs text-slate-500">With an even split the shares above are worked out again when you save; the first players by jersey number take any remainder.</p>
      <div className="flex justify-end gap-3">
        <Link to={`/teams/${order.teamId}`} className="btn-secondary">
          Cancel
        </Link>
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save Order'}
        </button>
      </div>
    </Form>
  );
}
