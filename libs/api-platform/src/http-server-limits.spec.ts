import { createServer, Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { hardenHttpServer, noteResponse } from './http-server-limits';

function serve(): Promise<Server> {
  const server = createServer((_req, res) => {
    noteResponse(res);
    res.statusCode = 405;
    res.setHeader('Content-Type', 'application/json');
    res.end('{"error":{"code":"method_not_allowed"}}');
  });
  hardenHttpServer(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
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
});
