import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail } from '@nvcf/errors';
import type { TokenVerifier } from '@nvcf/auth';
import { readBody, sendJson } from '@nvcf/subgraph-kit';
import { StatusStream, type StreamLimits } from '@nvcf/status-stream';
import type { Bus } from '@nvcf/messaging';
import { authenticate } from '../auth.js';
import { statusOperation, type StatusOperation } from './operation.js';
import { InstanceFetcher, type Execute } from './instances.js';
import { runStatusSubscription, ResultCache } from './execute.js';
import { serveSse } from './sse.js';

export interface StatusServiceOptions {
  bus: Bus;
  cursorSecret: string;
  verify: TokenVerifier;
  execute: Execute;
  limits?: Partial<StreamLimits>;
  maxBodyBytes?: number;
}

/**
 * instanceStatusChanged as an event-driven root field of the gateway: the replica reads the
 * status stream once and fans out (see gateway/README.md for why it lives here).
 */
export class StatusService {
  readonly stream: StatusStream;
  readonly instances: InstanceFetcher;
  private readonly cache = new ResultCache();
  constructor(private readonly opts: StatusServiceOptions) {
    this.stream = new StatusStream({ bus: opts.bus, cursorSecret: opts.cursorSecret, limits: opts.limits });
    this.instances = new InstanceFetcher(opts.execute);
  }

  start() { return this.stream.start(); }
  stop() { return this.stream.stop(fail('UNAVAILABLE', 'the gateway is shutting down; reconnect and resume from your last cursor')); }

  run(op: StatusOperation, variables: Record<string, unknown> | null | undefined, tenant: string, lastEventId?: string | null, query?: string) {
    return runStatusSubscription({ op, variables, tenant, stream: this.stream, instances: this.instances, lastEventId, cache: this.cache, query });
  }

  /** Serves an SSE request if it is a status subscription; otherwise hands back the body it read. */
  async trySse(req: IncomingMessage, res: ServerResponse): Promise<{ handled: true } | { handled: false; body: string }> {
    const body = await readBody(req, this.opts.maxBodyBytes ?? 1024 * 1024);
    let parsed: { query?: unknown; variables?: Record<string, unknown>; operationName?: string } = {};
    try { parsed = JSON.parse(body); } catch { return { handled: false, body }; }
    const op = statusOperation(parsed.query, parsed.operationName);
    if (!op) return { handled: false, body };
    let tenant: string;
    try {
      tenant = await authenticate(this.opts.verify, req.headers.authorization);
    } catch (err) {
      const e = err as { message: string; extensions: Record<string, unknown> };
      const { http: _h, ...extensions } = e.extensions;
      sendJson(res, 401, { errors: [{ message: e.message, extensions }] });
      return { handled: true };
    }
    const lastEventId = req.headers['last-event-id'];
    await serveSse(req, res, await this.run(op, parsed.variables, tenant, typeof lastEventId === 'string' ? lastEventId : null, parsed.query as string));
    return { handled: true };
  }
}
