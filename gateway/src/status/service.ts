import type { ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { fail } from '@nvcf/errors';
import { StatusStream, instanceStatus, taskStatus, type StreamLimits, type TaskFilter } from '@nvcf/status-stream';
import type { Bus } from '@nvcf/bus';
import type { TaskStatusEvent } from '@nvcf/contracts';
import type { StatusOperation } from './operation.js';
import { EntityFetcher, type Execute } from './entities.js';
import { runStatusSubscription, ResultCache, publicSchema, type FeedSource } from './execute.js';
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
 * The event-driven root fields of the gateway (instanceStatusChanged, taskStatusChanged): the
 * replica reads each one's stream once and fans out (see gateway/README.md for why it lives here).
 */
export class StatusService {
  /** instanceStatusChanged's stream */
  readonly stream: StatusStream;
  /** taskStatusChanged's stream */
  readonly tasks: StatusStream<TaskStatusEvent, TaskFilter>;
  /** each field's stream, by field name (StatusField.name) */
  private readonly streams: ReadonlyMap<string, FeedSource>;
  readonly entities: EntityFetcher;
  /** what subscriptions execute against; a supergraph reload replaces it (StatusSchema.replace) */
  readonly schema: StatusSchema;
  private readonly cache = new ResultCache();
  constructor(opts: StatusServiceOptions) {
    this.schema = new StatusSchema(opts.schema ?? publicSchema());
    const { bus, cursorSecret, limits } = opts;
    this.stream = new StatusStream({ bus, cursorSecret, limits, definition: instanceStatus });
    this.tasks = new StatusStream({ bus, cursorSecret, limits, definition: taskStatus });
    this.streams = new Map<string, FeedSource>([
      [instanceStatus.field, this.stream],
      [taskStatus.field, this.tasks],
    ]);
    this.entities = new EntityFetcher(opts.execute);
  }

  async start() {
    await Promise.all([this.stream.start(), this.tasks.start()]);
  }
  async stop() {
    const reason = fail('UNAVAILABLE', 'the gateway is shutting down; reconnect and resume from your last cursor');
    await Promise.all([this.stream.stop(reason), this.tasks.stop(reason)]);
  }

  /** Every stream's subscription metrics, in Prometheus text format. */
  metrics(): string {
    return this.stream.metrics.render() + this.tasks.metrics.render();
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
      stream: this.streams.get(op.field.name)!,
      entities: this.entities,
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
