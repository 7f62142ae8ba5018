/**
 * What a client may tell the API about a request: its own request id and the W3C Trace Context of the
 * call (`traceparent`, https://www.w3.org/TR/trace-context/#traceparent-header). Both are checked
 * before anything uses them, since they reach the response headers and the access log as they are.
 */

/**
 * A client's `X-Request-Id` is used as the request's id when it is 1-128 characters of letters, digits
 * and `-_.:+/=` (UUIDs, ULIDs, base64 and the service's own `req_` ids fit); anything else is ignored
 * and the service makes one. The characters never need escaping in JSON, a log line or a header.
 */
export const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/** The request id a client offered, if it is one the service accepts. */
export function acceptedRequestId(offered: string | string[] | undefined): string | null {
  return typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : null;
}

export interface TraceParent {
  /** 32 lower-case hex digits, not all zero. */
  traceId: string;
  /** The caller's span: 16 lower-case hex digits, not all zero. */
  parentId: string;
}

/** version 00: exactly `00-<trace-id>-<parent-id>-<trace-flags>`, lower-case hex. */
const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
/** A higher version: the same first four fields, then the end or a dash (what follows is not read). */
const HIGHER_VERSION = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(?:-|$)/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_PARENT_ID = '0'.repeat(16);
/** Longer values are not parsed (the spec lets a service refuse prohibitively large headers). */
const MAX_TRACEPARENT_LENGTH = 512;

/**
 * The trace and parent ids of a `traceparent` header, or null when it must be ignored: not the format
 * of its version, version `ff`, or an all-zero trace id or parent id (Trace Context, "traceparent
 * Header Field Values" and "Versioning of traceparent").
 */
export function parseTraceParent(header: string | string[] | undefined): TraceParent | null {
  if (typeof header !== 'string' || header.length > MAX_TRACEPARENT_LENGTH) return null;
  let traceId: string | undefined;
  let parentId: string | undefined;
  const v00 = VERSION_00.exec(header);
  if (v00) [, traceId, parentId] = v00;
  else {
    const higher = HIGHER_VERSION.exec(header);
    if (!higher || higher[1] === '00' || higher[1] === 'ff') return null;
    [, , traceId, parentId] = higher;
  }
  if (traceId === undefined || parentId === undefined || traceId === ZERO_TRACE_ID || parentId === ZERO_PARENT_ID) return null;
  return { traceId, parentId };
}
