import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an OTLP/HTTP JSON receiver got: each request's path and raw body, in order. */
export interface OtlpReceiver extends AsyncDisposable {
  /** http://127.0.0.1:<port>: the OTEL_EXPORTER_OTLP_ENDPOINT for an exporter */
  endpoint: string;
  received: { path: string; body: string }[];
  /** the parsed bodies sent to one signal's path (`/v1/traces`, `/v1/metrics`) */
  exports<T>(path: string): T[];
  close(): Promise<void>;
}

/**
 * A collector stand-in on a loopback port: accepts every OTLP/HTTP JSON export and keeps it, so a
 * test reads back exactly what a service exported (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: OtlpReceiver['received'] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c: string) => {
        body += c;
      })
      .on('end', () => {
        received.push({ path: req.url ?? '/', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    exports: <T>(path: string) => received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as T),
    close,
    [Symbol.asyncDispose]: close,
  };
}
