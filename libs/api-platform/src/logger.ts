import pino from 'pino';
import type { AppConfig } from '@bhis/config';

/** The pino logger of the API process: JSON lines; keys and cookies are never written. */
export function createLogger(config: AppConfig): pino.Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'], censor: '[redacted]' },
    },
    // asynchronous: the lines of one turn of the event loop (one per request under load) leave in one write, not one
    // write each; pino flushes what is left when the process exits
    pino.destination({ dest: 1, sync: false }),
  );
}
