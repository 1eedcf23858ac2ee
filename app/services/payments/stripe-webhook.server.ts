/**
 * Stripe's webhook: verified with the signing secret, handled once per event id (stripe_events),
 * in one transaction with the changes it makes. Nothing here calls Stripe.
 *
 * - checkout.session.completed (paid) and checkout.session.async_payment_succeeded: the
 *   checkout's pending orders become paid (and their items the buyer's);
 * - checkout.session.expired and checkout.session.async_payment_failed: its pending orders are
 *   cancelled and their stock returns.
 */
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { transaction } from '~/db/index.server';
import { checkouts, stripeEvents } from '~/db/schema';
import { Invalid } from '../errors';
import { cancelCheckout, markCheckoutPaid } from '../orders.server';
import { stripeClient } from './stripe.server';

export interface WebhookResult {
  received: true;
  duplicate?: true;
  handled?: string;
}

export async function handleStripeWebhook(payload: string, signature: string | null): Promise<WebhookResult> {
  const secret = process.env.STRIPE_WEBHOOK_SECRET;
  if (!secret || !process.env.STRIPE_SECRET_KEY) throw new Invalid('Stripe is not configured');
  let event: Stripe.Event;
  try {
    event = stripeClient().webhooks.constructEvent(payload, signature ?? '', secret);
  } catch {
    throw new Invalid('The webhook signature could not be verified');
  }
  return transaction(async (tx) => {
    const first = await tx.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning({ id: stripeEvents.id });
    if (!first.length) return { received: true, duplicate: true } as const;
    if (!event.type.startsWith('checkout.session.')) return { received: true } as const;
    const session = event.data.object as Stripe.Checkout.Session;
    const checkoutId = session.metadata?.checkoutId ?? session.client_reference_id ?? '';
    const checkout = checkoutId ? await tx.select().from(checkouts).where(eq(checkouts.id, checkoutId)).get() : undefined;
    // a session of another checkout (or another shop on the same account) changes nothing here
    if (!checkout || (checkout.stripeSessionId && checkout.stripeSessionId !== session.id)) return { received: true } as const;
    const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    if ((event.type === 'checkout.session.completed' && session.payment_status === 'paid') || event.type === 'checkout.session.async_payment_succeeded') {
      await markCheckoutPaid(checkout.id, paymentIntent);
      return { received: true, handled: 'paid' } as const;
    }
    if (event.type === 'checkout.session.expired' || event.type === 'checkout.session.async_payment_failed') {
      await cancelCheckout(checkout.id, 'The card payment was not completed; the pins went back on sale', 'expired');
      return { received: true, handled: 'expired' } as const;
    }
    return { received: true } as const;
  });
}
