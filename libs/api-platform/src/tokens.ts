// one set of tokens for every process (libs/config/src/tokens.ts); the API's pipeline adds its logger
export { CONFIG, DATA_SOURCE, REDIS } from '@bhis/config';
export const PINO_LOGGER = Symbol('bhis:pino-logger');
