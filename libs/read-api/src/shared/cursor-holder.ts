import type { Request } from 'express';
import { authenticatedKey } from '@bhis/api-platform';

/** Whom a cursor is signed for: the API key the page is served to (a cursor of one key is refused for another). */
export function cursorHolder(req: Request): string {
  return `key:${authenticatedKey(req).id}`;
}
