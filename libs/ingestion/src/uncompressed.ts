import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * The CSV text of a file as read: a gzip stream (told by its first two bytes, whatever the file is
 * called) is inflated on the way, anything else passes through. Backpressure is kept end to end.
 */
export function uncompressed(input: Readable): Readable {
  const output = new PassThrough({ highWaterMark: 1 << 16 });
  let target: Writable | null = null;
  input.on('data', (chunk: Buffer) => {
    if (!target) {
      if (chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b) {
        // 256 KB of text at a time: the CSV reader joins each chunk to the text it has left (csv-records.ts),
        // and with zlib's 16 KB chunks it copied every byte about five times
        const gunzip = createGunzip({ chunkSize: 1 << 18 });
        gunzip.on('error', (error) => output.destroy(new Error(`not a readable gzip file: ${error.message}`)));
        gunzip.pipe(output);
        target = gunzip;
      } else {
        target = output;
      }
    }
    if (!target.write(chunk)) {
      input.pause();
      target.once('drain', () => input.resume());
    }
  });
  input.on('end', () => (target ?? output).end());
  input.on('error', (error) => output.destroy(error));
  output.on('close', () => input.destroy());
  return output;
}
