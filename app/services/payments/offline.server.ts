/**
 * The embedded default: no card processor. The buyer pays the vendor at pickup or by invoice; each
 * order stays pending until its vendor marks it paid.
 */
import type { PaymentProvider } from './types';

export const offlineProvider: PaymentProvider = {
  name: 'offline',
  description: 'Pay the vendor at pickup or by invoice. Each order stays pending until its vendor marks it paid.',
  async begin() {
    return { redirectUrl: null, sessionId: null };
  },
};
