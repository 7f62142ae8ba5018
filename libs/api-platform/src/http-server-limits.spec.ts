import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { hardenHttpServer, noteResponse } from './http-server-limits';
import { SOCKET_POLICY, SocketPolicy } from './socket-policy';

function answer405(_req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 405;
  res.setHeader('Content-Type', 'application/json');
  res.end('{"error":{"code":"method_not_allowed"}}');
}

/** Answers once the whole body is in, as the pipeline's body reader does. */
function answerAfterBody(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => res.end('{}'));
}

function serve(handler = answer405, policy: SocketPolicy = SOCKET_POLICY): Promise<Server> {
  const server = createServer((req, res) => {
    noteResponse(res);
    handler(req, res);
  });
  hardenHttpServer(server, policy);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Opens a connection; resolves with the socket once connected. */
async function open(server: Server): Promise<Socket> {
  const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  return socket;
}

/** Whether the server ends or closes the connection within `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed || socket.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    socket.once('end', done);
    socket.once('close', done);
    socket.resume();
  });
}

interface Conversation {
  received: string;
  /** an error the client saw while it was still sending (a reset connection), if any */
  error: string | null;
  /** the client sent everything it meant to before the connection was closed */
  sentAll: boolean;
}

/**
 * A client that sends a request and then, once the whole answer is in, keeps sending what it took
 * for the request's body (a TRACE or DELETE body without a length is not part of the request).
 */
function sendBodyAfterAnswer(port: number, head: string, chunks: number): Promise<Conversation> {
  return new Promise((resolve) => {
    let received = '';
    let error: string | null = null;
    let sentAll = false;
    // the client goes on sending after the server has ended its side, as HTTP clients do
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(head));
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    let sent = 0;
    const sendMore = (): void => {
      if (socket.destroyed) return;
      if (sent++ === chunks) {
        sentAll = true;
        socket.end();
        return;
      }
      socket.write(chunk, () => setTimeout(sendMore, 2));
    };
    socket.on('data', (data: Buffer) => {
      const first = received === '';
      received += data.toString('latin1');
      if (first) setTimeout(sendMore, 20);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ received, error, sentAll }));
  });
}

describe('HTTP server limits', () => {
  it('does not reset a closing connection while the client is still sending: the answer is read, the rest discarded', async () => {
    const server = await serve();
    try {
      const { port } = server.address() as AddressInfo;
      const talk = await sendBodyAfterAnswer(port, 'TRACE /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 64);
      expect(talk.error).toBeNull();
      expect(talk.received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 405']);
      expect(talk.sentAll).toBe(true);
    } finally {
      server.close();
    }
  });

  it('closes a connection whose client keeps sending past the discard limit', async () => {
    const server = await serve();
    try {
      const { port } = server.address() as AddressInfo;
      // 64 KiB x 400 = 25 MiB, more than the server reads and throws away after an answer
      const talk = await sendBodyAfterAnswer(port, 'TRACE /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400);
      expect(talk.received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 405']);
      expect(talk.sentAll).toBe(false);
    } finally {
      server.close();
    }
  });

  it('closes a connection that sends no request within the idle limit, and not one whose request is under way', async () => {
    const server = await serve(answerAfterBody, { ...SOCKET_POLICY, idleBeforeRequestMs: 300 });
    try {
      const silent = await open(server);
      const busy = await open(server);
      // a request whose body is still coming: its own deadlines apply, not the idle limit
      busy.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
      expect(await closedWithin(silent, 2_000)).toBe(true);
      expect(await closedWithin(busy, 700)).toBe(false);
      busy.write('67890');
      busy.destroy();
    } finally {
      server.close();
    }
  });

  it('closes the connections of one address past its cap as they open', async () => {
    const server = await serve(answer405, { ...SOCKET_POLICY, maxConnectionsPerAddress: 3 });
    try {
      const sockets = await Promise.all(Array.from({ length: 5 }, () => open(server)));
      const closed = await Promise.all(sockets.map((s) => closedWithin(s, 500)));
      expect(closed.filter(Boolean)).toHaveLength(2);
      for (const s of sockets) s.destroy();
      // closed connections free their places
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = await open(server);
      expect(await closedWithin(again, 300)).toBe(false);
      again.destroy();
    } finally {
      server.close();
    }
  });

  it('closes its side of a connection whose client hung up mid-body (no CLOSE-WAIT socket left behind)', async () => {
    const server = await serve(answerAfterBody);
    try {
      const socket = await open(server);
      socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"bbls":[');
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.end();
      expect(await closedWithin(socket, 2_000)).toBe(true);
      expect(await new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)))).toBe(0);
    } finally {
      server.close();
    }
  });
});
