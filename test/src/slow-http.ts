import http from 'node:http';

export interface SlowHttp extends AsyncDisposable {
  /** the same path on this forwarder, e.g. a subgraph's /graphql */
  url: string;
  /** requests held or being forwarded right now */
  pending(): number;
}

/**
 * Forwards every request to `target` after holding it `delayMs`: a subgraph that answers slowly,
 * so that an operation is still in flight when the test changes something under it.
 */
export async function slowHttp(target: string, delayMs: number): Promise<SlowHttp> {
  const to = new URL(target);
  let pending = 0;
  const server = http.createServer((req, res) => {
    pending++;
    res.on('close', () => pending--);
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const timer = setTimeout(() => {
        const up = http.request(
          { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(body));
      }, delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    pending: () => pending,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
