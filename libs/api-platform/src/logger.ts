import pino from 'pino';
import type { AppConfig } from '@bhis/config';

/** Where the API process's log lines go: the logger's and the access log's, one order and one buffer. */
export function createLogDestination(): pino.DestinationStream {
  // asynchronous and buffered: lines leave in writes of 4 KiB or more, and at least every 250 ms.
  // Unbuffered, every line (one per request under load) was a write of its own through libuv's thread
  // pool, which cost the process more CPU than a cached lookup itself (docs/benchmarks.md); pino
  // flushes what is left when the process exits
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });
}

/** The pino logger of the API process: JSON lines; keys and cookies are never written. */
export function createLogger(config: AppConfig, destination: pino.DestinationStream): pino.Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'], censor: '[redacted]' },
    },
    destination,
  );
}
