import { Worker } from 'node:worker_threads';
import { describeLoadFailure } from './load-failure';

/** The error of a real thread that outgrows the heap it was given (what a staging thread raises). */
function threadOutOfHeap(): Promise<Error> {
  const grow = 'const kept = []; for (;;) kept.push(new Array(1e5).fill(Math.random()));';
  const thread = new Worker(grow, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16 } });
  return new Promise((resolve) => thread.once('error', resolve));
}

describe('describeLoadFailure', () => {
  it('says in plain words that the disk is full, and that the previous data is kept', () => {
    const error = Object.assign(new Error('could not extend file "base/16384/16412.1": No space left on device'), { code: '53100' });
    const message = describeLoadFailure(error);
    expect(message).toMatch(/^Postgres ran out of disk space during the load \(SQLSTATE 53100: could not extend file/);
    expect(message).toMatch(/still serves its previous data/);
  });

  it('names the setting that bounds a staging thread that ran out of its heap', async () => {
    const message = describeLoadFailure(await threadOutOfHeap());
    expect(message).toMatch(/^A staging thread ran out of its heap, bounded by INGEST_THREAD_HEAP_MB \(.*memory limit.*\)\. /);
    expect(message).toMatch(/still serves its previous data; raise the setting and run the load again\.$/);
  }, 30_000);

  it('keeps the message of any other failure', () => {
    expect(describeLoadFailure(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe('duplicate key value');
    expect(describeLoadFailure('plain')).toBe('plain');
    expect(describeLoadFailure(null)).toBe('null');
  });
});
