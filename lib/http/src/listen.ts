import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens (port 0 = ephemeral) and returns the bound base URL. */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return `http://${host}:${addr.port}`;
}

export interface CloseOptions {
  /** how long requests in flight may take to finish before their connections are cut */
  graceMs?: number;
}

/**
 * Stops accepting, closes idle keep-alive connections at once and each busy one as soon as its
 * response is done, and cuts whatever is still open after the grace period: a rolling restart
 * lets answers in flight finish instead of resetting them. Long-lived streams (SSE, WebSocket)
 * are the owner's to end before this (drain), or they are cut at the deadline.
 */
export async function closeServer(server: Server, opts: CloseOptions = {}): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // a connection becomes idle when its response ends; close it then rather than on its keep-alive timer
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => server.closeAllConnections(), opts.graceMs ?? 5000);
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(cut);
  }
}
