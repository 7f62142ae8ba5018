import { describeLoadFailure } from './load-failure';

describe('describeLoadFailure', () => {
  it('says in plain words that the disk is full, and that the previous data is kept', () => {
    const error = Object.assign(new Error('could not extend file "base/16384/16412.1": No space left on device'), { code: '53100' });
    const message = describeLoadFailure(error);
    expect(message).toMatch(/^Postgres ran out of disk space during the load \(SQLSTATE 53100: could not extend file/);
    expect(message).toMatch(/still serves its previous data/);
  });

  it('keeps the message of any other failure', () => {
    expect(describeLoadFailure(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe('duplicate key value');
    expect(describeLoadFailure('plain')).toBe('plain');
    expect(describeLoadFailure(null)).toBe('null');
  });
});
