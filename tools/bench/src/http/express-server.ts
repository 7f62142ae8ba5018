// A bare Express 5 app (no middleware, one route) answering the lookup path with the same JSON body:
// the framework baseline the API's lookup, 401 and 429 are compared with.
// Usage: node express-server.js <body-bytes>; prints "listening <port>".
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ceilingBody } from './ceiling-body';

const body = ceilingBody(Number(process.argv[2] ?? 2048));

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/api/v1/buildings/:bbl', (_req, res) => {
  res.set('Content-Type', 'application/json; charset=utf-8');
  res.send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
