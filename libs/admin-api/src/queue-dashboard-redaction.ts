/** Text that names a file, a URL, a host:port or an environment-style assignment. */
const REVEALING = /(?:[A-Za-z]:)?[\\/][\w.-]+[\\/][^\s'"]*|[a-z][a-z0-9+.-]*:\/\/\S+|\b[\w.-]+:\d{2,5}\b|\b[A-Z][A-Z0-9_]{2,}=\S+/g;

function redactText(text: string): string {
  return text.replace(REVEALING, '[redacted]');
}

/**
 * What the dashboard shows of a job's data or return value: numbers, booleans, ids and names; any
 * text that reveals a file, URL, address or setting is replaced, nested values included.
 */
export function redactJobData(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.slice(0, 20).map(redactJobData);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactJobData(v)]));
  }
  return value;
}

/** Removes stack traces and redacts failure reasons in every job of a dashboard API answer. */
export function scrubBoardPayload(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(scrubBoardPayload);
  if (!body || typeof body !== 'object') return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'stacktrace') out[key] = [];
    else if (key === 'failedReason' && typeof value === 'string') out[key] = redactText(value.split('\n')[0] ?? '');
    else if (key === 'opts') out[key] = {};
    else out[key] = scrubBoardPayload(value);
  }
  return out;
}
