import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Button, buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import type { TradeMatch, TradePin, TradeProposalDto } from '~/types/trades';
import type { TradeStatus } from '~/utils/constants';

const STATUS_LABEL: Record<TradeStatus, string> = {
  open: 'Open',
  accepted: 'Completed',
  declined: 'Declined',
  cancelled: 'Cancelled',
  countered: 'Countered',
  expired: 'Expired',
};
const STATUS_CLASS: Record<TradeStatus, string> = {
  open: 'bg-brand-100 text-brand-800',
  accepted: 'bg-green-100 text-green-800',
  declined: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-200 text-slate-700',
  countered: 'bg-amber-100 text-amber-800',
  expired: 'bg-slate-200 text-slate-700',
};

export function TradeStatusBadge({ status }: { status: TradeStatus }) {
  return <span className={`badge ${STATUS_CLASS[status]}`}>{STATUS_LABEL[status]}</span>;
}

export const formatTradeDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** A pin as a small chip: thumbnail and name, linking to its page. */
export function PinChip({ pin }: { pin: TradePin }) {
  return (
    <li className="min-w-0 max-w-full">
      <Link to={`/pins/${pin.id}`} className="flex max-w-full min-w-0 items-center gap-2 rounded-md border border-slate-200 bg-white p-1.5 pr-3 text-sm hover:bg-slate-50">
        {pin.thumbnail ? (
          <img src={pin.thumbnail} alt="" width={32} height={32} loading="lazy" className="h-8 w-8 shrink-0 rounded object-cover" />
        ) : (
          <span aria-hidden="true" className="h-8 w-8 shrink-0 rounded bg-slate-100" />
        )}
        <span className="truncate">{pin.name}</span>
      </Link>
    </li>
  );
}

export function PinSide({ title, pins, empty, testId }: { title: ReactNode; pins: TradePin[]; empty: string; testId?: string }) {
  return (
    <div className="min-w-0" data-testid={testId}>
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      {pins.length ? <ul className="flex flex-wrap gap-2">{pins.map((p) => <PinChip key={p.id} pin={p} />)}</ul> : <p className="text-sm text-slate-500">{empty}</p>}
    </div>
  );
}

export function MatchCard({ match }: { match: TradeMatch }) {
  const who = match.user.name;
  return (
    <li className="card p-4" data-testid="trade-match">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">
          {match.user.nickname ? <Link to={`/u/${encodeURIComponent(match.user.nickname)}`} className="hover:underline">{who}</Link> : who}
        </h2>
        {match.twoWay ? <span className="badge bg-green-100 text-green-800">Two-way match</span> : <span className="badge bg-slate-100 text-slate-700">One-way match</span>}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <PinSide title={`They have, you want (${match.receive.length})`} pins={match.receive} empty="None of your wanted pins yet." />
        <PinSide title={`You have, they want (${match.give.length})`} pins={match.give} empty="None of your trading pins yet." />
      </div>
      <div className="mt-4">
        <Link to={`/trades/new?with=${encodeURIComponent(match.user.id)}`} className={buttonClass('primary')}>
          Propose a trade
        </Link>
      </div>
    </li>
  );
}

/** One proposal as either side sees it, with the answers the viewer may give (plain POST forms). */
export function ProposalCard({
  proposal,
  viewerId,
  canRate = false,
  confirmAccept = false,
}: {
  proposal: TradeProposalDto;
  viewerId: string;
  canRate?: boolean;
  /** the server renders the accept confirmation (?confirm=accept&trade=) */
  confirmAccept?: boolean;
}) {
  const mine = proposal.proposer.id === viewerId;
  const other = mine ? proposal.recipient : proposal.proposer;
  const youGive = mine ? proposal.proposerGives : proposal.recipientGives;
  const youGet = mine ? proposal.recipientGives : proposal.proposerGives;
  const dateLine =
    proposal.status === 'open'
      ? `Proposed ${formatTradeDate(proposal.createdAt)} · expires ${formatTradeDate(proposal.expiresAt)}`
      : proposal.closedAt
        ? `${STATUS_LABEL[proposal.status]} ${formatTradeDate(proposal.closedAt)}`
        : `Proposed ${formatTradeDate(proposal.createdAt)}`;
  return (
    <li id={`trade-${proposal.id}`} className="card p-4" data-testid="trade-proposal">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{mine ? `To ${other.name}` : `From ${other.name}`}</h2>
        <TradeStatusBadge status={proposal.status} />
      </div>
      <p className="mb-3 text-xs text-slate-500">{dateLine}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <PinSide title="You give" pins={youGive} empty="Nothing" testId="trade-you-give" />
        <PinSide title="You receive" pins={youGet} empty="Nothing" testId="trade-you-receive" />
      </div>
      {proposal.note ? (
        <p className="mt-3 whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 text-sm text-slate-700">
          <span className="font-semibold">Note: </span>
          {proposal.note}
        </p>
      ) : null}
      {proposal.canAnswer || proposal.canCancel ? (
        <div className="mt-4 flex flex-wrap gap-2">
          {proposal.canAnswer ? (
            <>
              <ConfirmStep
                trigger="Accept trade"
                triggerClassName={buttonClass('primary')}
                title="Accept this trade?"
                description={`You give ${youGive.map((p) => p.name).join(', ') || 'nothing'} and receive ${youGet.map((p) => p.name).join(', ') || 'nothing'}. Both collections change at once; this cannot be undone.`}
                confirmLabel="Accept trade"
                pendingLabel="Accepting..."
                fields={{ intent: 'accept', id: proposal.id }}
                action="/trades"
                href={`/trades?tab=incoming&confirm=accept&trade=${encodeURIComponent(proposal.id)}#trade-${proposal.id}`}
                closeHref={`/trades?tab=incoming#trade-${proposal.id}`}
                serverOpen={confirmAccept}
              />
              <Link to={`/trades/new?counter=${encodeURIComponent(proposal.id)}`} className={buttonClass('secondary')}>
                Counter
              </Link>
              <Form method="post" action="/trades">
                <input type="hidden" name="id" value={proposal.id} />
                <Button name="intent" value="decline">
                  Decline
                </Button>
              </Form>
            </>
          ) : null}
          {proposal.canCancel && mine ? (
            <Form method="post" action="/trades">
              <input type="hidden" name="id" value={proposal.id} />
              <Button variant="danger" name="intent" value="cancel">
                Cancel proposal
              </Button>
            </Form>
          ) : null}
        </div>
      ) : null}
      {canRate ? (
        <Form method="post" action="/trades?tab=history" className="mt-4 flex flex-wrap items-end gap-2">
          <input type="hidden" name="id" value={proposal.id} />
          <label className="text-sm">
            <span className="label">Rate {other.name}</span>
            <select name="score" className="input mt-1" defaultValue="5">
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {n} / 5
                </option>
              ))}
            </select>
          </label>
          <Button name="intent" value="rate" size="sm">
            Rate this trade
          </Button>
        </Form>
      ) : null}
    </li>
  );
}
