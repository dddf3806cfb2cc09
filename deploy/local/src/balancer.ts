import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listen, closeServer } from '@nvcf/http';

export interface Balancer extends AsyncDisposable {
  url: string;
  /** replaces the set of backends (base URLs); the new ones are taken as ready until a probe says otherwise */
  setBackends(urls: string[]): void;
  /** backends that answered /ready with 200 at the last check */
  ready(): string[];
  dispose(): Promise<void>;
}

/**
 * What a Kubernetes Service does for this topology on one machine: HTTP and WebSocket traffic
 * round-robin to the backends whose `/ready` answers 200, checked every `checkMs`. A backend
 * that starts draining answers 503 there and gets no new connections from the next check on.
 */
export async function startBalancer(opts: {
  backends: string[];
  port?: number;
  host?: string;
  checkMs?: number;
}): Promise<Balancer> {
  let backends = [...opts.backends];
  let live: string[] = [];
  let next = 0;
  const pick = () => (live.length ? live[next++ % live.length] : undefined);
  // As a readiness probe's failureThreshold: a backend that answers 503 (draining) or refuses the
  // connection leaves at once; one that does not answer (slow, or reset on a busy machine) leaves after three
  // checks in a row, not on the first, or a loaded host would briefly have no backend at all.
  const slow = new Map<string, number>();
  const check = async () => {
    const checked = [...backends];
    const results = await Promise.all(
      checked.map(async (b): Promise<'ready' | 'not-ready' | 'slow'> => {
        try {
          return (await fetch(`${b}/ready`, { signal: AbortSignal.timeout(1000) })).status === 200
            ? 'ready'
            : 'not-ready';
        } catch (err) {
          // refused: the process is gone; anything else (a timeout, a reset on a busy host) is only slow
          return ((err as Error).cause as { code?: string } | undefined)?.code === 'ECONNREFUSED'
            ? 'not-ready'
            : 'slow';
        }
      }),
    );
    live = checked.filter((b, i) => {
      const r = results[i];
      if (r !== 'slow') {
        slow.delete(b);
        return r === 'ready' && backends.includes(b);
      }
      const n = (slow.get(b) ?? 0) + 1;
      slow.set(b, n);
      return n < 3 && live.includes(b) && backends.includes(b);
    });
  };
  await check();
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void check().finally(() => {
      checking = false;
    });
  }, opts.checkMs ?? 200);

  const server: Server = createServer((req, res) => {
    const target = pick();
    if (!target) {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"errors":[{"message":"no ready backend","extensions":{"code":"UNAVAILABLE"}}]}');
    }
    const u = new URL(target);
    const upstream = request(
      { host: u.hostname, port: u.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) {
        res.writeHead(502);
      }
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const target = pick();
    if (!target) return socket.destroy();
    const u = new URL(target);
    const up = connect(Number(u.port), u.hostname, () => {
      const lines = [
        `${req.method} ${req.url} HTTP/${req.httpVersion}`,
        ...Object.entries(req.headers).flatMap(([k, v]) =>
          Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`],
        ),
      ];
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    const end = () => {
      up.destroy();
      socket.destroy();
    };
    up.on('error', end);
    socket.on('error', end);
    up.on('close', end);
    socket.on('close', end);
  });
  const url = await listen(server, opts.port ?? 0, opts.host);
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      clearInterval(timer);
      await closeServer(server);
    })());
  return {
    url,
    // a removed backend gets no new request from now on (an endpoint removed before its pod drains)
    setBackends: (urls) => {
      const added = urls.filter((u) => !backends.includes(u));
      backends = [...urls];
      // an endpoint joins a Service once its pod is Ready: callers add a backend after its /ready
      // said so, and a first probe that is merely slow on a busy host must not keep it out
      live = [...live.filter((u) => urls.includes(u)), ...added];
      void check();
    },
    ready: () => [...live],
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
