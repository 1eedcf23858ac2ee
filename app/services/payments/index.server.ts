/**
 * Which payment provider this instance uses: Stripe Checkout when STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET are both set, else the offline provider (pay at pickup or by invoice).
 */
import { offlineProvider } from './offline.server';
import { stripeConfigured, stripeProvider } from './stripe.server';
import type { PaymentProvider } from './types';

export type { BeganPayment, BeginPaymentInput, PaymentLine, PaymentProvider } from './types';

export function paymentProvider(): PaymentProvider {
  return stripeConfigured() ? stripeProvider() : offlineProvider;
}
