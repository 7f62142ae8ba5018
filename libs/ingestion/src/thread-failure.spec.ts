import { HeaderMismatchError } from '@bhis/sources';
import { threadError } from './thread-failure';

/** A failure crosses from a staging thread as data and is the same kind of error on the loading thread. */
describe('a staging thread failure on the loading thread', () => {
  it('a header mismatch stays one, with its columns and the file\'s header (it is permanent)', () => {
    const error = threadError({
      message: 'header of hpd_litigations (main) does not match',
      header: { source: 'hpd_litigations', part: 'main', missing: ['LitigationID'], unexpected: ['ViolationID'], header: ['ViolationID', 'BBL'] },
    });
    expect(error).toBeInstanceOf(HeaderMismatchError);
    expect(error).toEqual(expect.objectContaining({ source: 'hpd_litigations', missing: ['LitigationID'], unexpected: ['ViolationID'], header: ['ViolationID', 'BBL'] }));
  });

  it('any other failure keeps its message and code', () => {
    const error = threadError({ message: 'No space left on device', code: '53100' });
    expect(error).not.toBeInstanceOf(HeaderMismatchError);
    expect(error).toEqual(expect.objectContaining({ message: 'No space left on device', code: '53100' }));
  });
});
