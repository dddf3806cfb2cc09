import { createServer, type Server } from 'node:http';
import { sendJson } from '@nvcf/http';
import { isClosing, type Phase } from '@nvcf/lifecycle';

export interface ProbeOptions {
  clusterId: string;
  /** the agent's phase: /ready answers 503 from the moment it drains */
  phase: () => Phase;
  /** Prometheus text exposition for GET /metrics */
  metrics: () => string;
}

/** The agent process's probes: /health, /ready and /metrics. */
export function createProbeServer(o: ProbeOptions): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health') return sendJson(res, 200, { status: 'ok', cluster: o.clusterId });
    if (path === '/ready')
      return isClosing(o.phase())
        ? sendJson(res, 503, { status: 'draining' })
        : sendJson(res, 200, { status: 'ready', cluster: o.clusterId });
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      return res.end(o.metrics());
    }
    sendJson(res, 404, { error: 'GET /health, /ready or /metrics' });
  });
}
