import type { Pool } from 'pg';
import type { ContractQueue } from '@bhis/queue';
import { enqueueIngest, IngestRequestError } from './ingest-producer';

describe('enqueueIngest', () => {
  // refused before anything is queued or written: neither the queue nor the database is touched
  const untouched = { queue: {} as ContractQueue<'ingest'>, pool: {} as Pool };

  it('refuses a source the registry does not have', async () => {
    await expect(enqueueIngest(untouched.queue, untouched.pool, { source: 'no_such_source', input: { kind: 'download' }, trigger: 'test' })).rejects.toThrow(
      new IngestRequestError('Unknown source "no_such_source"'),
    );
  });

  it('refuses a URL that is not http(s), and a file that does not exist', async () => {
    await expect(enqueueIngest(untouched.queue, untouched.pool, { source: 'hpd_violations', input: { kind: 'url', url: 'file:///etc/passwd' }, trigger: 'test' })).rejects.toBeInstanceOf(IngestRequestError);
    await expect(enqueueIngest(untouched.queue, untouched.pool, { source: 'hpd_violations', input: { kind: 'file', path: '/nonexistent/hpd.csv' }, trigger: 'test' })).rejects.toThrow(/No such file/);
  });
});
