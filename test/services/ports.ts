/** Local TCP port helpers (loopback only). */
import net from 'node:net';

export const LOOPBACK = '127.0.0.1';

/** True when `port` can be bound on 127.0.0.1 right now. */
export function isPortFree(port: number, host = LOOPBACK): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** Lets the kernel pick a free ephemeral port. */
export function ephemeralPort(host = LOOPBACK): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen({ port: 0, host, exclusive: true }, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Returns `preferred` when it is free and not in `taken`, otherwise a free
 * ephemeral port (also not in `taken`). The chosen port is added to `taken`.
 */
export async function pickPort(preferred: number, taken: Set<number> = new Set()): Promise<number> {
  let port = preferred;
  if (taken.has(port) || !(await isPortFree(port))) {
    do port = await ephemeralPort();
    while (taken.has(port));
  }
  taken.add(port);
  return port;
}

/** Parses "host:port" (or "host" with `defaultPort`). */
export function parseHostPort(s: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(s.trim());
  if (!m) return { host: s.trim(), port: defaultPort };
  return { host: m[1] ?? s.trim(), port: m[2] ? Number(m[2]) : defaultPort };
}
