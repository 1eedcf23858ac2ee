/**
 * The payment provider interface: how a placed checkout gets paid. Providers are called after the
 * checkout's transaction has committed, never inside it (a network call must not hold the
 * database's write lock).
 */
import type { PaymentProvider as ProviderName } from '~/utils/constants';

export interface PaymentLine {
  name: string;
  quantity: number;
  unitPriceCents: number;
}

export interface BeginPaymentInput {
  checkoutId: string;
  buyerEmail: string;
  lines: PaymentLine[];
  totalCents: number;
  /** absolute URLs the payment page returns to */
  successUrl: string;
  cancelUrl: string;
  /** the orders' stock hold ends then: a payment session should not outlive it */
  expiresAt: Date | null;
}

export interface BeganPayment {
  /** where to send the buyer to pay now (null: nothing to do now, e.g. pay at pickup) */
  redirectUrl: string | null;
  /** the provider's id for this payment (a Stripe Checkout session id) */
  sessionId: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** one line for the checkout page: how the buyer pays */
  readonly description: string;
  begin(input: BeginPaymentInput): Promise<BeganPayment>;
}
