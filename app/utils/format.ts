/** Display formats shared by pages (browser-safe). */
export const formatCount = (n: number) => new Intl.NumberFormat('en-US').format(n);
export const formatMoney = (dollars: number | null | undefined) =>
  dollars == null ? '-' : `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** e.g. "Mar 5, 2025" */
export const formatDate = (value: string | Date | null | undefined) =>
  value ? new Date(value).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : '-';
