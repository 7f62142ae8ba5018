// A bare node:http server answering every request with the same JSON body: the ceiling the API's
// throughput is compared with. Usage: node ceiling-server.js <body-bytes>; prints "listening <port>".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ceilingBody } from './ceiling-body';

const body = ceilingBody(Number(process.argv[2] ?? 2048));

const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
