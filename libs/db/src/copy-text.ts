const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** Encodes values for Postgres COPY ... FROM STDIN (text format, tab-separated, \N for null). */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  // most values need no escaping: test once instead of four replacements
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

export function copyRow(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : '\t') + copyValue(values[i]);
  return `${line}\n`;
}
