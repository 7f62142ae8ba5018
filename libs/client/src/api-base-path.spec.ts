import { API_BASE_PATH as SERVED_BASE_PATH } from '@bhis/envelope';
import { API_BASE_PATH, apiBaseUrl } from './index';

describe('the base path of the client', () => {
  it('is the one the API serves', () => {
    expect(API_BASE_PATH).toBe(SERVED_BASE_PATH);
    expect(apiBaseUrl('https://host')).toBe(`https://host${SERVED_BASE_PATH}`);
  });
});
