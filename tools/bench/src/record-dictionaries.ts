/*
 * Writes libs/db/src/event-record-zstd-dictionaries.ts: one zstd dictionary per source of events,
 * trained with the `zstd` command (`zstd --train`) on records sampled from a loaded database, as the
 * event loads compress them (event-record.ts). A source with too few records to train on gets none,
 * and its records stay with deflate: zstd with the raw text of the deflate dictionaries as a dictionary
 * made their short records larger than deflate did (docs/adr/0011-event-storage-and-load-path.md).
 *
 *   npm run bench -- --help >/dev/null   # compiles the harness
 *   node dist/tools/bench/tools/bench/src/record-dictionaries.js postgres://postgres@127.0.0.1/<database> [--replace]
 *
 * Stored records name their dictionary by id (byte 0 = 3 for these): once records are written with a
 * dictionary, it must never change. Train a new set under a new id instead.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { encodeRecord, expandProblem, jsonbText, newestDeflateDictionary, PROBLEMS_DICTIONARY, readRecord, RECORD_DICTIONARIES, RecordZstd } from '@bhis/db';

const SAMPLES = 20_000;
/** Fewer records than this: no zstd dictionary (the source's records stay with deflate). */
const MIN_SAMPLES = 1_000;
const DICTIONARY_BYTES = 8_192;
/**
 * zstd is kept for a source unless its records come out more than this much larger than with deflate:
 * it compresses a record in a fourth of the time, which the load needs more than a few bytes (the
 * problems of HPD complaints, ~13% larger, are compressed once for every row of the largest file).
 */
const MAX_GROWTH = 1.25;

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

/** dist/tools/bench/tools/bench/src -> the repository. */
const OUT = path.join(__dirname, '../../../../../../libs/db/src/event-record-zstd-dictionaries.ts');

async function samples(client: Client, source: string): Promise<string[]> {
  if (source === PROBLEMS_DICTIONARY) {
    const { rows } = await client.query<{ p: string }>(
      `SELECT p FROM (SELECT attributes -> 'problems' AS ps FROM events
                       WHERE source = 'hpd_complaints' AND jsonb_typeof(attributes -> 'problems') = 'array'
                       ORDER BY md5(source_record_id) LIMIT $1) e, jsonb_array_elements(ps) AS p LIMIT $1`,
      [SAMPLES],
    );
    return rows.flatMap(({ p }) => {
      const expanded = expandProblem(p);
      if (expanded === null || typeof expanded !== 'object') return [];
      const { problem_id: _id, ...rest } = expanded as Record<string, unknown>;
      return [jsonbText(rest)];
    });
  }
  const { rows } = await client.query<{ record: Buffer }>(
    `SELECT record FROM events WHERE source = $1 AND record IS NOT NULL ORDER BY md5(source_record_id) LIMIT $2`,
    [source, SAMPLES],
  );
  return rows.map(({ record }) => {
    const { attributes, description } = readRecord(source, record);
    // the key of the description in a record is the empty string (event-record.ts)
    return jsonbText(description === null ? attributes : { '': description, ...attributes });
  });
}

function train(texts: string[]): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'record-samples-'));
  try {
    mkdirSync(path.join(dir, 'samples'));
    texts.forEach((text, i) => writeFileSync(path.join(dir, 'samples', String(i)), text));
    const out = path.join(dir, 'dictionary');
    execFileSync('zstd', ['--train', '-r', path.join(dir, 'samples'), '-o', out, `--maxdict=${DICTIONARY_BYTES}`, '-q', '-f']);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [url, replace] = process.argv.slice(2);
  if (!url) throw new Error('usage: record-dictionaries.js <database url> [--replace]');
  // records written with these dictionaries cannot be read with others
  if (replace !== '--replace' && /^\s+'[A-Za-z0-9+/=]+',$/m.test(readFileSync(OUT, 'utf8'))) {
    throw new Error(`${OUT} holds dictionaries already: stored records need them as they are. Train a new set under a new id, or pass --replace for a database that holds no record of them`);
  }
  const client = new Client({ connectionString: url });
  await client.connect();
  const lines: string[] = [];
  try {
    for (const source of Object.keys(RECORD_DICTIONARIES).sort()) {
      const texts = await samples(client, source);
      if (texts.length < MIN_SAMPLES) {
        console.log(`${source}: ${texts.length} records sampled, too few to train on: its records stay with deflate`);
        continue;
      }
      // every fifth record is held out to compare the two codecs on records the training did not see
      const heldOut = texts.filter((_, i) => i % 5 === 0);
      const dictionary = train(texts.filter((_, i) => i % 5 !== 0));
      const zstd = new RecordZstd(dictionary);
      const zstdBytes = mean(heldOut.map((text) => zstd.compress(0, text).length));
      const deflateBytes = mean(heldOut.map((text) => encodeRecord(source, JSON.parse(text) as Record<string, unknown>, newestDeflateDictionary(source)).length));
      const summary = `${heldOut.length} held-out records: ${zstdBytes.toFixed(1)} bytes with zstd, ${deflateBytes.toFixed(1)} with deflate`;
      if (zstdBytes > deflateBytes * MAX_GROWTH) {
        console.log(`${source}: ${summary}; its records stay with deflate`);
        continue;
      }
      console.log(`${source}: ${summary}; dictionary of ${dictionary.length} bytes`);
      lines.push(`  // trained on ${texts.length - heldOut.length} records; ${summary}`);
      lines.push(`  ${source}:\n    '${dictionary.toString('base64')}',`);
    }
  } finally {
    await client.end();
  }
  writeFileSync(
    OUT,
    `/**
 * zstd dictionaries of event records, by source, base64 (record-zstd.ts, event-record.ts, dictionary
 * id 3; docs/adr/0011-event-storage-and-load-path.md): written by tools/bench/src/record-dictionaries.ts
 * from records of the synthetic city (seed 2, 1%). A source without one writes its records with
 * deflate. Stored records name the dictionary they were written with: never edit one; train a new set
 * under a new id instead.
 */
export const ZSTD_DICTIONARIES: Readonly<Record<string, string>> = {
${lines.join('\n')}
};
`,
  );
  console.log(`wrote ${OUT}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
