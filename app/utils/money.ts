/**
 * Money as the marketplace keeps it: integer cents in the database, dollars with 2 decimals on
 * screen and in the API. Spec §3/§9: a price is a decimal of 10 digits with 2 decimals, so the
 * largest is 99,999,999.99. Browser-safe.
 */
export const MAX_PRICE_CENTS = 9_999_999_999;
export const PRICE_FORMAT_MESSAGE = 'Enter a price in dollars with at most 2 decimals, e.g. 12.50';
export const PRICE_TOO_HIGH_MESSAGE = 'Price must be at most $99,999,999.99';

/**
 * Cents from a price as typed or sent ('12.5', '$1,250.00', 12.5). Null for anything that is not
 * a non-negative amount with at most 2 decimals; 'too-high' beyond 10 digits.
 */
export function parsePriceToCents(value: unknown): number | null | 'too-high' {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/^\$/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  } else return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const whole = match[1].replace(/^0+(?=\d)/, '');
  if (whole.length > 8) return 'too-high';
  const cents = Number(whole) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > MAX_PRICE_CENTS ? 'too-high' : cents;
}

/** '$1,234.50' */
export function formatCents(cents: number | null | undefined): string {
  if (cents == null) return '-';
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** '1234.50': the API's dollars, always with 2 decimals. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
