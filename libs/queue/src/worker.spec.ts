import { workerConnection } from './connection';
import { JOB_NAMES } from './contracts';
import { JobHandlers, startWorker } from './worker';

describe('startWorker', () => {
  // never connected: a worker that refuses to start must not reach Redis
  const connection = workerConnection('redis://127.0.0.1:6379', { lazyConnect: true });
  const handle = () => Promise.resolve(undefined);

  afterAll(() => connection.disconnect());

  it('refuses to start when a job name of its queue has no handler, and names it', () => {
    const handlers = { score: handle, backfill: handle, 'score-part': handle } as unknown as JobHandlers<'scoring'>;
    expect(() => startWorker('scoring', handlers, { connection, prefix: 'bhis-test' })).toThrow(
      new Error('Worker for queue "scoring" has no handler for: score-finish'),
    );
    expect(connection.status).toBe('wait');
  });

  it('refuses a handler that is not a function', () => {
    const handlers = { 'dispatch-crossings': handle, deliver: 'deliver' } as unknown as JobHandlers<'webhooks'>;
    expect(() => startWorker('webhooks', handlers, { connection, prefix: 'bhis-test' })).toThrow(
      new Error('Worker for queue "webhooks" has no handler for: deliver'),
    );
  });

  it('names every job name of the queue that has none', () => {
    expect(() => startWorker('ingest', {} as JobHandlers<'ingest'>, { connection, prefix: 'bhis-test' })).toThrow(
      new Error(`Worker for queue "ingest" has no handler for: ${JOB_NAMES.ingest.join(', ')}`),
    );
    expect(connection.status).toBe('wait');
  });
});
