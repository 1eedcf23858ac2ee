/**
 * The order state machine of spec §4, as data (browser-safe, so pages can offer only the moves
 * that exist; the orders service enforces them):
 *   pending -> paid -> processing -> shipped -> delivered, and pending | paid -> cancelled.
 * A vendor fulfils (ships) a paid order; 'processing' is a paid order being packed, so it may be
 * shipped too. Delivered and cancelled are final.
 */
import type { OrderStatus } from './constants';

export const ORDER_MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['paid', 'cancelled'],
  paid: ['processing', 'shipped', 'cancelled'],
  processing: ['shipped'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  processing: 'Processing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

export const ORDER_STATUS_STYLES: Record<OrderStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  paid: 'bg-sky-100 text-sky-900',
  processing: 'bg-indigo-100 text-indigo-900',
  shipped: 'bg-violet-100 text-violet-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  cancelled: 'bg-slate-200 text-slate-700',
};

/** Statuses in which the buyer owns the items (they are in the inventory). */
export const OWNED_STATUSES = ['paid', 'processing', 'shipped', 'delivered'] as const satisfies readonly OrderStatus[];
/** Spec §4: active orders are all those not delivered or cancelled. */
export const ACTIVE_STATUSES = ['pending', 'paid', 'processing', 'shipped'] as const satisfies readonly OrderStatus[];

export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_MOVES[from].includes(to);
}

/** Spec §2/§9: the order number shown is the last 8 characters of the id. */
export function orderNumber(id: string): string {
  return id.slice(-8);
}
