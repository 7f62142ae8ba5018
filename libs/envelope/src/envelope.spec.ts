import { ApiError } from './api-error';
import { buildMeta, errorEnvelope, metaText, successEnvelope } from './envelope';
import { ERROR_CODES } from './error-codes';
import { newRequestId, REQUEST_ID_PATTERN } from './request-id';

describe('envelope', () => {
  const ctx = { requestId: newRequestId(), rateLimit: { limit: 60, remaining: 59, reset_at: '2026-11-21T10:00:00.000Z' } };

  it('request ids are req_ + 24 lower-case hex characters and unique', () => {
    const ids = new Set(Array.from({ length: 1000 }, newRequestId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(REQUEST_ID_PATTERN);
  });

  it('wraps data with meta, pagination and links', () => {
    const env = successEnvelope(ctx, { a: 1 }, { links: { self: 'http://x/api/v1' } });
    expect(env).toEqual({
      data: { a: 1 },
      meta: { request_id: ctx.requestId, api_version: 'v1', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), rate_limit: ctx.rateLimit },
      pagination: null,
      _links: { self: 'http://x/api/v1' },
    });
  });

  it('error envelopes carry error and meta, and no data', () => {
    const env = errorEnvelope(ctx, { code: 'invalid_bbl', message: 'bad', status: 400 });
    expect(env).toEqual({ error: { code: 'invalid_bbl', message: 'bad', status: 400 }, meta: expect.objectContaining({ request_id: ctx.requestId }) });
    expect('data' in env).toBe(false);
  });

  it('ApiError takes its status from the code table', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(new ApiError(code as keyof typeof ERROR_CODES, 'm').status).toBe(status);
    }
  });

  it('covers every error code of docs/interface-spec.md', () => {
    for (const code of ['invalid_bbl', 'invalid_request', 'missing_api_key', 'invalid_api_key', 'insufficient_scope', 'building_not_found', 'rate_limit_exceeded', 'internal_error']) {
      expect(ERROR_CODES).toHaveProperty(code);
    }
  });

  it('metaText is the text JSON.stringify makes of buildMeta, with and without a rate limit', () => {
    const contexts = [ctx, { requestId: newRequestId(), rateLimit: null }, { requestId: 'req_"odd\\', rateLimit: { limit: 0, remaining: Number.NaN, reset_at: 'x"y' } }];
    for (const context of contexts) {
      const text = metaText(context);
      const { timestamp } = JSON.parse(text) as { timestamp: string };
      expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(text).toBe(JSON.stringify(buildMeta(context, new Date(timestamp))));
    }
  });
});
