/** Encodes values for Postgres COPY ... FROM STDIN (text format, tab-separated, \N for null). */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

export function copyRow(values: readonly unknown[]): string {
  return `${values.map(copyValue).join('\t')}\n`;
}
