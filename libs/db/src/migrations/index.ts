import { ApiKeys1763700000000 } from './1763700000000-api-keys';
import { DataModel1763700100000 } from './1763700100000-data-model';

/** Every migration, in order. New migrations are appended here. */
export const MIGRATIONS = [ApiKeys1763700000000, DataModel1763700100000];
