/**
 * Stripe Checkout, when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set. STRIPE_API_BASE (tests)
 * points the official SDK at another server, e.g. http://127.0.0.1:12111.
 */
import Stripe from 'stripe';
import type { PaymentProvider } from './types';

export function stripeConfigured(): boolean {
  return !!process.env.STRIPE_SECRET_KEY && !!process.env.STRIPE_WEBHOOK_SECRET;
}

let client: { key: string; base: string; stripe: Stripe } | null = null;

export function stripeClient(): Stripe {
  const key = process.env.STRIPE_SECRET_KEY ?? '';
  const base = process.env.STRIPE_API_BASE ?? '';
  if (client && client.key === key && client.base === base) return client.stripe;
  let options: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 15_000 };
  if (base) {
    const url = new URL(base);
    options = { ...options, host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), protocol: url.protocol === 'https:' ? 'https' : 'http' };
  }
  client = { key, base, stripe: new Stripe(key, options) };
  return client.stripe;
}

export function stripeProvider(): PaymentProvider {
  return {
    name: 'stripe',
    description: 'Pay by card on Stripe’s secure checkout page. Your orders are confirmed as soon as the payment goes through.',
    async begin(input) {
      const session = await stripeClient().checkout.sessions.create({
        mode: 'payment',
        client_reference_id: input.checkoutId,
        customer_email: input.buyerEmail,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: { checkoutId: input.checkoutId },
        // Stripe accepts 30 minutes to 24 hours; the stock hold decides within that
        ...(input.expiresAt ? { expires_at: Math.max(Math.ceil(input.expiresAt.getTime() / 1000), Math.ceil(Date.now() / 1000) + 30 * 60 + 5) } : {}),
        line_items: input.lines.map((l) => ({
          quantity: l.quantity,
          price_data: { currency: 'usd', unit_amount: l.unitPriceCents, product_data: { name: l.name.slice(0, 250) } },
        })),
      });
      return { redirectUrl: session.url ?? null, sessionId: session.id };
    },
  };
}
