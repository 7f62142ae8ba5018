import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { PlatformExpressAdapter } from './platform-http-server';

describe('PlatformExpressAdapter', () => {
  it('serves requests made as PlatformIncomingMessage, with the platform field from construction', async () => {
    const app = express();
    // Express gives the request its own prototype, so the field, not instanceof, tells the class it was made with
    app.get('/seen', (req, res) => res.json({ ownField: Object.hasOwn(req, 'platform') }));
    const adapter = new PlatformExpressAdapter(app);
    adapter.initHttpServer({});
    const server = adapter.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/seen`)).json()).toEqual({ ownField: true });
    } finally {
      server.close();
    }
  });

  it('refuses forceCloseConnections rather than ignoring it', () => {
    expect(() => new PlatformExpressAdapter(express()).initHttpServer({ forceCloseConnections: true })).toThrow(/forceCloseConnections/);
  });
});
