import type { Server } from 'node:http';

/**
 * Stops a server the way a rolling update needs: no new connections, idle keep-alive
 * connections closed, requests in flight allowed to finish until `graceMs`, then whatever is
 * left is cut. Resolves when the server is closed.
 */
export async function drainServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections?.();
  // keep-alive connections that turn idle after their last response close too
  const idle = setInterval(() => server.closeIdleConnections?.(), 100);
  const timer = setTimeout(() => server.closeAllConnections?.(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
  }
}
