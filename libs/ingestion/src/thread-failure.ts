import { HeaderMismatchError } from '@bhis/sources';

/** A failure of the thread as plain data; a header mismatch keeps what makes it one (it is permanent). */
export interface ThreadFailure {
  message: string;
  code?: string;
  header?: { source: string; part: string; missing: string[]; unexpected: string[]; header: string[] };
}

/** The failure a thread reports, as the error the main thread throws (a header mismatch stays one). */
export function threadError(failure: ThreadFailure): Error {
  if (failure.header) {
    const h = failure.header;
    return new HeaderMismatchError(h.source, h.part, h.missing, h.unexpected, h.header);
  }
  return Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {});
}
