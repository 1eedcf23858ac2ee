import type { ActionFunctionArgs } from '@remix-run/node';
import { api, methodNotAllowed } from '~/http/api.server';
import { TooLarge } from '~/services/errors';
import { handleStripeWebhook } from '~/services/payments/stripe-webhook.server';

/**
 * POST /api/stripe/webhook: Stripe's events, verified with STRIPE_WEBHOOK_SECRET (400 otherwise)
 * and handled once per event id. Register it in Stripe for checkout.session.completed,
 * checkout.session.expired and the async payment events.
 */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  if (Number(request.headers.get('content-length') ?? '0') > 1024 * 1024) throw new TooLarge('Payload too large');
  // the signature covers the exact bytes: read them as they came
  const payload = await request.text();
  return handleStripeWebhook(payload, request.headers.get('stripe-signature'));
});
export const loader = api(async () => methodNotAllowed(['POST']));
