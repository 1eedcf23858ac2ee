/** Pieces the marketplace, cart, orders, vendor and inventory pages share. */
import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { OrderStatus } from '~/utils/constants';
import { formatCents } from '~/utils/money';
import { ORDER_STATUS_LABELS, ORDER_STATUS_STYLES } from '~/utils/order-status';
import { Button } from './ui/button';
import { HiddenFields } from './ui/hidden-fields';

// the marketplace's constants, in this module's chunk (the pages that use them all load it)
export { CANCEL_REASONS, LISTING_CATEGORIES, MAX_CART_QUANTITY } from '~/utils/marketplace';

/** A small square picture of a listing (or a drawn placeholder), fixed size so nothing shifts. */
export function ListingThumb({ src, alt, size = 64, className }: { src: string | null; alt: string; size?: number; className?: string }) {
  return src ? (
    <img src={src} alt={alt} width={size} height={size} loading="lazy" decoding="async" className={`shrink-0 rounded-md border border-slate-100 bg-white object-contain ${className ?? ''}`} style={{ width: size, height: size }} />
  ) : (
    <div aria-hidden="true" className={`flex shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-300 ${className ?? ''}`} style={{ width: size, height: size }}>
      <svg viewBox="0 0 24 24" width={size / 2} height={size / 2} fill="none" stroke="currentColor" strokeWidth="1.5">
        <circle cx="12" cy="9" r="6" />
        <path d="M12 15v7M9 9h6M12 6v6" />
      </svg>
    </div>
  );
}

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`badge ${ORDER_STATUS_STYLES[status]}`}>{ORDER_STATUS_LABELS[status]}</span>;
}

export function Money({ cents, className }: { cents: number; className?: string }) {
  return <span className={className}>{formatCents(cents)}</span>;
}

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }) + ' UTC';

export interface TimelineMove {
  from: OrderStatus | null;
  to: OrderStatus;
  at: string;
  by: string | null;
  reason: string | null;
}

/** The moves of an order, oldest first: what, when, who, why. */
export function OrderTimeline({ moves }: { moves: TimelineMove[] }) {
  return (
    <ol className="space-y-2 border-l-2 border-slate-200 pl-4" aria-label="Order timeline">
      {moves.map((m, i) => (
        <li key={i} className="relative text-sm">
          <span aria-hidden="true" className="absolute -left-[1.4rem] top-1.5 h-2.5 w-2.5 rounded-full bg-brand-500" />
          <span className="font-semibold text-slate-900">{m.from ? ORDER_STATUS_LABELS[m.to] : 'Placed'}</span>{' '}
          <span className="text-slate-600">
            <time dateTime={m.at}>{when(m.at)}</time> · {m.by ?? 'PinDex (automatic)'}
          </span>
          {m.reason ? <p className="text-slate-600">Reason: {m.reason}</p> : null}
        </li>
      ))}
    </ol>
  );
}

/** A one-button POST form (intent + fields), pending while it is sent. */
export function ActionButton({ intent, fields, children, pendingLabel = 'Saving...', variant = 'secondary', size = 'md', action }: { intent: string; fields: Record<string, string>; children: ReactNode; pendingLabel?: string; variant?: 'primary' | 'secondary' | 'danger'; size?: 'md' | 'sm'; action?: string }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent && Object.entries(fields).every(([k, v]) => navigation.formData?.get(k) === v);
  return (
    <Form method="post" action={action} preventScrollReset className="inline">
      <HiddenFields fields={{ intent, ...fields }} />
      <Button variant={variant} size={size} pending={pending} pendingLabel={pendingLabel}>
        {children}
      </Button>
    </Form>
  );
}
