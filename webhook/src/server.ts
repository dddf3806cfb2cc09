import fs from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { BodyTooLarge, closeServer, discardBody, readBody, sendJson } from '@nvcf/http';
import { ServingPhase } from '@nvcf/lifecycle';
import { createLogger } from '@nvcf/logging';
import { admissions, admissionSeconds } from './metrics.js';
import type { ReadNamespace } from './namespaces.js';
import { admit } from './review.js';

const log = createLogger('nvca-webhook');

export interface WebhookServerOptions {
  /** PEM files of the serving certificate (chain) and its key: the chart mounts them from a Secret */
  certFile: string;
  keyFile: string;
  namespaces: ReadNamespace;
  /** Prometheus text for GET /metrics */
  metrics: () => string;
  /** an AdmissionReview carries the object and, on updates, its old version */
  maxBodyBytes?: number;
  /** how often the certificate files are checked for a renewal (cert-manager rotates the Secret); 0: never */
  certCheckMs?: number;
}

export interface WebhookServer extends AsyncDisposable {
  readonly server: Server;
  readonly phase: ServingPhase;
  /** the bound base URL, https://host:port */
  listen(port: number, host?: string): Promise<string>;
  /** /ready turns 503, admissions in flight finish (up to graceMs), then the listener closes */
  drain(graceMs: number): Promise<void>;
}

const readTls = (o: WebhookServerOptions) => ({ cert: fs.readFileSync(o.certFile), key: fs.readFileSync(o.keyFile) });

/**
 * The admission webhook's HTTPS server: POST /mutate answers AdmissionReviews; /health,
 * /ready (and the /healthz, /readyz spellings kubelet examples use) and /metrics beside it, on
 * the same port, since the API server only calls webhooks over TLS.
 */
export function createWebhookServer(o: WebhookServerOptions): WebhookServer {
  const maxBody = o.maxBodyBytes ?? 16 * 1024 * 1024;
  const phase = new ServingPhase();
  const server = createServer({ ...readTls(o), minVersion: 'TLSv1.2' }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/mutate') {
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST an admission.k8s.io/v1 AdmissionReview' });
      const done = admissionSeconds.time();
      readBody(req, maxBody).then(
        async (body) => {
          const { review, result } = await admit(body, o.namespaces);
          admissions.inc({ result });
          done({ result });
          sendJson(res, 200, review);
        },
        (err: unknown) => {
          admissions.inc({ result: 'error' });
          done({ result: 'error' });
          if (!(err instanceof BodyTooLarge)) return void res.destroy();
          sendJson(res, 413, { error: err.message }, {}, { endAfter: discardBody(req, maxBody) });
        },
      );
      return;
    }
    if (path === '/health' || path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/ready' || path === '/readyz') {
      const r = phase.readiness();
      return sendJson(res, r.status, r.body);
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      return res.end(o.metrics());
    }
    sendJson(res, 404, { error: 'POST /mutate; GET /health, /ready or /metrics' });
  });
  // a handshake a client gave up on is that client's problem, not a reason to log at error
  server.on('tlsClientError', (err) => log.debug(`TLS handshake failed: ${err.message}`));

  let lastCert = '';
  const reload = () => {
    try {
      const tls = readTls(o);
      const text = tls.cert.toString();
      if (text === lastCert) return;
      if (lastCert) log.info('serving certificate changed on disk: reloaded');
      lastCert = text;
      server.setSecureContext({ ...tls, minVersion: 'TLSv1.2' });
    } catch (err) {
      // a Secret update is written in steps: keep the previous pair until both files read again
      log.warn(`cannot reload the serving certificate, keeping the previous one: ${String(err)}`);
    }
  };
  reload();
  const check = o.certCheckMs ? setInterval(reload, o.certCheckMs) : undefined;
  check?.unref();

  const drain = (graceMs: number) =>
    phase.drain(async () => {
      clearInterval(check);
      await closeServer(server, { graceMs });
    });
  return {
    server,
    phase,
    async listen(port, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      phase.listening();
      return `https://${host}:${(server.address() as AddressInfo).port}`;
    },
    drain,
    [Symbol.asyncDispose]: () => drain(1000),
  };
}
