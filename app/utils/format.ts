/**
 * Display formats shared by pages (browser-safe). The Intl formatters are built once: a new one
 * on every call cost more than the rest of a card's render.
 */
const COUNT = new Intl.NumberFormat('en-US');
const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

// whole numbers under 1,000 (most counts on a card) read the same without Intl, which costs more
export const formatCount = (n: number) => (Number.isInteger(n) && n >= 0 && n < 1000 ? String(n) : COUNT.format(n));
export const formatMoney = (dollars: number | null | undefined) => (dollars == null ? '-' : `$${MONEY.format(dollars)}`);
/** e.g. "Mar 5, 2025" */
export const formatDate = (value: string | Date | null | undefined) => {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? DATE.format(date) : '-';
};
