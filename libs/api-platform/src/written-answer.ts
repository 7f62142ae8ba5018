import type { Request, Response } from 'express';

/**
 * An answer a controller returns that writes itself: its status, headers and body text, in one
 * `writeHead` (json-text.ts). The Express adapter writes it in place of Nest's JSON serialisation
 * (platform-http-server.ts, `reply`), so a controller returns values and no handler takes `@Res()`,
 * while the stored JSON texts of the read endpoints (and their ETag and 304) are spliced in unparsed.
 */
export abstract class WrittenAnswer {
  abstract write(req: Request, res: Response): void;
}
