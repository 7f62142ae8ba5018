// one set of tokens for every process (libs/config/src/tokens.ts); the API's pipeline adds its logger
export { CONFIG, DATA_SOURCE, REDIS } from '@bhis/config';
export const PINO_LOGGER = Symbol('bhis:pino-logger');
/** The destination the logger writes to (a pino.DestinationStream), where the access log writes too. */
export const LOG_DESTINATION = Symbol('bhis:log-destination');
