import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';

/** How long connections may stay open without work, and how many one client address may hold. */
export interface SocketPolicy {
  /** A connection that has not sent a byte within this time of opening is closed (from its first byte the header deadline applies). */
  idleBeforeRequestMs: number;
  /** A kept-alive connection with no new request within this time is closed (Node's `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** Connections one client address may hold at once; the next ones are closed as they open. */
  maxConnectionsPerAddress: number;
}

/**
 * The API's policy. 10 s before a first request: a client that connects sends its request at once
 * (a browser's speculative preconnect waits longer, and is simply opened again). 5 s of keep-alive
 * is Node's default, stated here. 256 connections an address: 8 times the bench's 32 concurrent
 * connections of one client (tools/bench), far above what one real client opens.
 */
export const SOCKET_POLICY: SocketPolicy = { idleBeforeRequestMs: 10_000, keepAliveTimeoutMs: 5_000, maxConnectionsPerAddress: 256 };

/**
 * Applies the policy to a server: idle connections are closed before and between requests, and an
 * address past its cap has its new connections closed at once. `exempt` names addresses the cap
 * does not apply to (trusted proxies, which carry many clients' connections).
 */
export function applySocketPolicy(server: Server, policy: SocketPolicy = SOCKET_POLICY, exempt: (address: string) => boolean = () => false): void {
  server.keepAliveTimeout = policy.keepAliveTimeoutMs;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > policy.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
  // over TLS the HTTP connection is the TLS socket, once its handshake is done (handshakeTimeout before)
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (socket.destroyed) return;
    // a timer of its own, not the socket's timeout: Node would end a socket whose timeout fires
    // while its first request's headers are still coming, which their own deadline governs
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, policy.idleBeforeRequestMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
