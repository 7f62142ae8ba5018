import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import type { SuccessEnvelope } from '@bhis/envelope';
import { baseUrl, nextPageLinkHeader, nextPageUrl } from './links';

/**
 * Gives every envelope a controller returns with a next page (`pagination.next_cursor`) a
 * `_links.next` and a `Link: <...>; rel="next"` header, built from the request's own URL. Answers
 * written by hand (the read endpoints) do the same in their own writer (`sendCacheable`).
 */
@Injectable()
export class PaginationLinksInterceptor implements NestInterceptor {
  constructor(private readonly publicBaseUrl: string | undefined) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((body: unknown) => this.withNextLink(context, body)));
  }

  private withNextLink(context: ExecutionContext, body: unknown): unknown {
    const cursor = (body as Partial<SuccessEnvelope<unknown>> | undefined)?.pagination?.next_cursor;
    if (typeof cursor !== 'string') return body;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const envelope = body as SuccessEnvelope<unknown>;
    const url = nextPageUrl(`${baseUrl(req, this.publicBaseUrl)}${req.originalUrl}`, cursor);
    http.getResponse<Response>().setHeader('Link', nextPageLinkHeader(url));
    return { ...envelope, _links: { ...envelope._links, next: url } };
  }
}
