/** Writing CSV that spreadsheets open as they should (RFC 4180, UTF-8 with a BOM). */

type Cell = string | number | boolean | null | undefined;

/** A CSV field: quoted when needed, and formula-looking text neutralised for spreadsheets. */
export function csvField(value: Cell): string {
  if (value == null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole document: a BOM so spreadsheets read accents, CRLF rows. */
export function csvDocument(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const lines = [header.map(csvField).join(','), ...rows.map((row) => row.map(csvField).join(','))];
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
