import type { ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { fail } from '@nvcf/errors';
import { StatusStream, type StreamLimits } from '@nvcf/status-stream';
import type { Bus } from '@nvcf/bus';
import type { StatusOperation } from './operation.js';
import { InstanceFetcher, type Execute } from './instances.js';
import { runStatusSubscription, ResultCache, publicSchema } from './execute.js';
import { StatusSchema } from './schema.js';
import { serveSse } from './sse.js';

export interface StatusServiceOptions {
  bus: Bus;
  cursorSecret: string;
  execute: Execute;
  limits?: Partial<StreamLimits>;
  /** the public schema of the supergraph the gateway serves; default the committed one */
  schema?: GraphQLSchema;
}

/** How an operation was admitted, for the checks a supergraph reload runs on it. */
export interface Admission {
  /** the variables as sent */
  variables?: Record<string, unknown>;
  /** the schema the guard validated it on */
  schema?: GraphQLSchema;
}

/**
 * instanceStatusChanged as an event-driven root field of the gateway: the replica reads the
 * status stream once and fans out (see gateway/README.md for why it lives here).
 */
export class StatusService {
  readonly stream: StatusStream;
  readonly instances: InstanceFetcher;
  /** what subscriptions execute against; a supergraph reload replaces it (StatusSchema.replace) */
  readonly schema: StatusSchema;
  private readonly cache = new ResultCache();
  constructor(opts: StatusServiceOptions) {
    this.schema = new StatusSchema(opts.schema ?? publicSchema());
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
    admission: Admission = {},
  ) {
    return runStatusSubscription({
      schema: this.schema,
      admittedOn: admission.schema,
      sent: admission.variables,
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
    admitted: { coerced: Record<string, unknown>; variables: Record<string, unknown>; query: string },
    tenant: string,
    lastEventId: string | null,
  ) {
    // the guard's check and this call happen in one turn: the current schema is the one it admitted on
    const admission = { variables: admitted.variables, schema: this.schema.schema };
    await serveSse(res, await this.run(op, admitted.coerced, tenant, lastEventId, admitted.query, admission));
  }
}
