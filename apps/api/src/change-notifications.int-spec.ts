import { Client } from 'pg';
import { CHANGE_CHANNELS, ChangeListener, NotifiedCache } from '@bhis/db';
import { createTestDatabase, poll, TestDatabase } from '@bhis/testing';
import { createTestKey } from './testing/test-api';

/** The notifications behind the in-memory key and document caches, against a real Postgres. */
describe('change notifications and the caches built on them', () => {
  let db: TestDatabase;
  let sql: Client;
  let listener: ChangeListener;
  let keys: NotifiedCache<{ v: string }>;
  let documents: NotifiedCache<{ v: string }>;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    listener = new ChangeListener(db.url, { applicationName: 'bhis-listener-test', retryMs: 100 });
    keys = new NotifiedCache(listener, [CHANGE_CHANNELS.apiKeys], { maxEntries: 100 });
    documents = new NotifiedCache(listener, [CHANGE_CHANNELS.buildingDocuments], { maxEntries: 100, maxBytes: 1_000, sizeOf: (e) => e.v.length });
    listener.start();
    await poll('the listener to be live', async () => listener.isLive() || null, 10_000, 20);
  });

  afterAll(async () => {
    await listener?.stop();
    await sql?.end();
    await db?.drop();
  });

  const fill = (cache: NotifiedCache<{ v: string }>, key = 'k') => cache.setIfUnchanged(cache.generation(), key, { v: 'x' });
  const emptied = (cache: NotifiedCache<{ v: string }>, key = 'k') => poll('the cache to be emptied', async () => cache.get(key) === undefined || null, 5_000, 5);

  it('empties the key cache when a key is revoked, expired, re-scoped or deleted, not when its use is recorded', async () => {
    const generation = keys.generation();
    const key = await createTestKey(db.url);
    await poll('the creation to be announced', async () => keys.generation() !== generation || null, 5_000, 5);
    fill(keys);
    await sql.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [key.id]);
    await sql.query('SELECT pg_sleep(0.2)');
    expect(keys.get('k')).toEqual({ v: 'x' });
    for (const change of [
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1',
      "UPDATE api_keys SET expires_at = now() + interval '1 day' WHERE id = $1",
      "UPDATE api_keys SET scopes = '{buildings:read}' WHERE id = $1",
      'DELETE FROM api_keys WHERE id = $1',
    ]) {
      fill(keys);
      expect(keys.get('k')).toBeDefined();
      await sql.query(change, [key.id]);
      await emptied(keys);
    }
  });

  it('empties the key cache when a key is created', async () => {
    fill(keys);
    expect(keys.get('k')).toBeDefined();
    await createTestKey(db.url);
    await emptied(keys);
  });

  it('empties the document cache on any change of buildings or building_scores, and only that cache', async () => {
    fill(keys);
    fill(documents);
    await sql.query(`INSERT INTO buildings (bbl, borough, block, lot, address) VALUES ('1000010001', 1, 1, 1, '1 TEST STREET')`);
    await emptied(documents);
    expect(keys.get('k')).toBeDefined();
    fill(documents);
    await sql.query(`DELETE FROM building_scores WHERE bbl = '1000010001'`); // no row: the statement still announces
    await emptied(documents);
  });

  it('does not keep a value read while a change was being committed', async () => {
    const generation = documents.generation();
    await sql.query(`UPDATE buildings SET zipcode = '10001' WHERE bbl = '1000010001'`);
    await poll('the change to be seen', async () => documents.generation() !== generation || null, 5_000, 5);
    documents.setIfUnchanged(generation, 'stale', { v: 'old document' });
    expect(documents.get('stale')).toBeUndefined();
  });

  it('keeps entries within the byte budget, least recently used out first', () => {
    documents.setIfUnchanged(documents.generation(), 'a', { v: 'a'.repeat(600) });
    documents.setIfUnchanged(documents.generation(), 'b', { v: 'b'.repeat(300) });
    expect(documents.get('a')).toBeDefined();
    documents.setIfUnchanged(documents.generation(), 'c', { v: 'c'.repeat(300) });
    expect(documents.get('b')).toBeUndefined();
    expect(documents.get('a')).toBeDefined();
    expect(documents.get('c')).toBeDefined();
  });

  it('keeps nothing with a budget of 0 bytes, and reads through otherwise', async () => {
    const off = new NotifiedCache<{ v: string }>(listener, [CHANGE_CHANNELS.buildingDocuments], { maxBytes: 0, sizeOf: (e) => e.v.length });
    let reads = 0;
    const load = async () => {
      reads += 1;
      return { v: 'x' };
    };
    await off.getOrLoad('k', load);
    await off.getOrLoad('k', load);
    expect(reads).toBe(2);
    await documents.getOrLoad('read-through', load);
    await documents.getOrLoad('read-through', load);
    expect(reads).toBe(3);
  });

  it('serves nothing from memory while the notification connection is down, and comes back by itself', async () => {
    fill(keys);
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bhis-listener-test' AND datname = current_database()) t`,
    );
    expect(rows[0]?.n).toBe(1);
    await poll('the listener to notice', async () => !listener.isLive() || null, 5_000, 5);
    expect(keys.get('k')).toBeUndefined();
    fill(keys);
    expect(keys.get('k')).toBeUndefined(); // nothing is kept while a change could go unseen
    await poll('the listener to be live again', async () => listener.isLive() || null, 10_000, 20);
    fill(keys);
    expect(keys.get('k')).toEqual({ v: 'x' });
  });
});
