import type { ServerResponse } from 'node:http';
import { fail } from '@nvcf/errors';
import { StatusStream, type StreamLimits } from '@nvcf/status-stream';
import type { Bus } from '@nvcf/bus';
import type { StatusOperation } from './operation.js';
import { InstanceFetcher, type Execute } from './instances.js';
import { runStatusSubscription, ResultCache } from './execute.js';
import { serveSse } from './sse.js';

export interface StatusServiceOptions {
  bus: Bus;
  cursorSecret: string;
  execute: Execute;
  limits?: Partial<StreamLimits>;
}

/**
 * instanceStatusChanged as an event-driven root field of the gateway: the replica reads the
 * status stream once and fans out (see gateway/README.md for why it lives here).
 */
export class StatusService {
  readonly stream: StatusStream;
  readonly instances: InstanceFetcher;
  private readonly cache = new ResultCache();
  constructor(opts: StatusServiceOptions) {
    this.stream = new StatusStream({ bus: opts.bus, cursorSecret: opts.cursorSecret, limits: opts.limits });
    this.instances = new InstanceFetcher(opts.execute);
  }

  start() {
    return this.stream.start();
  }
  stop() {
    return this.stream.stop(
      fail('UNAVAILABLE', 'the gateway is shutting down; reconnect and resume from your last cursor'),
    );
  }

  run(
    op: StatusOperation,
    variables: Record<string, unknown>,
    tenant: string,
    lastEventId?: string | null,
    query?: string,
  ) {
    return runStatusSubscription({
      op,
      variables,
      tenant,
      stream: this.stream,
      instances: this.instances,
      lastEventId,
      cache: this.cache,
      query,
    });
  }

  /** Serves an admitted status subscription over SSE. */
  async serveSse(
    res: ServerResponse,
    op: StatusOperation,
    admitted: { coerced: Record<string, unknown>; query: string },
    tenant: string,
    lastEventId: string | null,
  ) {
    await serveSse(res, await this.run(op, admitted.coerced, tenant, lastEventId, admitted.query));
  }
}
