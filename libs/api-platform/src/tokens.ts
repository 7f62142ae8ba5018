export const CONFIG = Symbol('bhis:config');
export const DATA_SOURCE = Symbol('bhis:data-source');
export const REDIS = Symbol('bhis:redis');
export const PINO_LOGGER = Symbol('bhis:pino-logger');
