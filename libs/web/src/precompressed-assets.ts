import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);

interface Asset {
  raw: Buffer;
  gzipped: Buffer;
  etag: string;
}

/**
 * Static files served as they are on disk (the Swagger UI bundle, ~1.4 MB), read and gzipped once
 * per process and kept, so a request costs no compression: the response compression of the pipeline
 * leaves a body that already has a Content-Encoding alone.
 */
@Injectable()
export class PrecompressedAssets {
  /** Files compressed so far: each at most once for the life of the process. */
  compressions = 0;
  private readonly assets = new Map<string, Promise<Asset>>();

  private load(path: string): Promise<Asset> {
    let asset = this.assets.get(path);
    if (!asset) {
      asset = readFile(path).then(async (raw) => {
        this.compressions += 1;
        const gzipped = await gzipAsync(raw, { level: 9 });
        return { raw, gzipped, etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"` };
      });
      // a file that cannot be read is tried again by the next request
      asset.catch(() => this.assets.delete(path));
      this.assets.set(path, asset);
    }
    return asset;
  }

  /** Sends the file (gzipped to a client that accepts it), or 304 for the ETag the client has. */
  async send(req: Request, res: Response, path: string, type: string): Promise<void> {
    const asset = await this.load(path);
    res.setHeader('Content-Type', type);
    res.setHeader('ETag', asset.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.headers['if-none-match'] === asset.etag) {
      res.status(304).end();
      return;
    }
    const gzipped = req.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzipped) res.setHeader('Content-Encoding', 'gzip');
    const body = gzipped ? asset.gzipped : asset.raw;
    res.setHeader('Content-Length', String(body.length));
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
