import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { Bus, Consumer, StartAt } from '@nvcf/bus';
import { subgraphSdl } from '@nvcf/schema';
import { build, periodic } from '@nvcf/lifecycle';
import { createLogger } from '@nvcf/logging';
import type { OperatorRegistry } from '@nvcf/operators';
import { startSubgraph, type RunningSubgraph } from '@nvcf/subgraph-kit';
import type { TaskStore } from './store/index.js';
import { createLoaders, resolvers } from './resolvers.js';
import { redeliver, systemClock, type Clock, type TaskDeps } from './lifecycle.js';
import { sweepDeadlines } from './deadlines.js';
import { TaskMetrics } from './metrics.js';
import { consumeReports, placeQueued, type PlaceTask } from './dispatch.js';

const log = createLogger('nvct');

export interface NvctServerOptions {
  store: TaskStore;
  /** where every transition is announced (the task status stream) */
  bus: Bus;
  /** the operator registry operator tasks are checked against (the one nvcf checks functions with) */
  registry: OperatorRegistry;
  secret: string;
  port?: number;
  host?: string;
  /** the control plane's now: timestamps and deadlines; tests pass a fake one */
  clock?: Clock;
  /**
   * how often the open tasks' deadlines are checked, the queued ones offered to ICMS again, and
   * transitions stored but not published (the bus was down) published again (default 1000)
   */
  deadlineSweepMs?: number;
  /** ICMS's placement of a task (its internal RPC); without it tasks stay QUEUED */
  placeTask?: PlaceTask;
  /** durable reader of the agents' task reports; replicas of one deployment share it */
  consumerName?: string;
  consumerStart?: StartAt;
}

export const buildNvctSchema = (deps: TaskDeps, registry: OperatorRegistry) =>
  buildSubgraphSchema([{ typeDefs: parse(subgraphSdl('nvct')), resolvers: resolvers(deps, registry) }]);

export async function createNvctServer(opts: NvctServerOptions): Promise<RunningSubgraph> {
  const metrics = new TaskMetrics();
  const deps: TaskDeps = { store: opts.store, bus: opts.bus, clock: opts.clock ?? systemClock, metrics };
  return build(async (stack) => {
    const { placeTask } = opts;
    // one listing of the open tasks per pass, for the deadlines and then the placement: a task the
    // sweep just ended is not offered to ICMS
    const tend = async () => {
      // first what was stored but not published (the bus was down): apart, so an outage of the bus
      // does not also hold back the deadlines, whose transitions it will publish once it is back
      await redeliver(deps).catch((err) => log.warn('publishing stored task transitions failed; retrying', err));
      const open = await deps.store.listOpen();
      const ended = new Set((await sweepDeadlines(deps, open)).map((t) => t.id));
      if (placeTask)
        await placeQueued(
          deps,
          placeTask,
          opts.registry,
          open.filter((t) => !ended.has(t.id)),
        );
    };
    const sweeper = periodic(opts.deadlineSweepMs ?? 1000, tend, (err) =>
      log.error('deadline sweep or placement failed', err),
    );
    stack.defer(() => sweeper.stop());
    const reports: Consumer = await consumeReports(deps, opts.consumerName, opts.consumerStart);
    stack.defer(() => reports.stop());
    const server = await startSubgraph({
      name: 'nvct',
      schema: buildNvctSchema(deps, opts.registry),
      secret: opts.secret,
      port: opts.port,
      host: opts.host,
      context: (tenant) => ({ tenant, loaders: createLoaders(opts.store) }),
      metrics: () => metrics.render(),
    });
    const drain = async (graceMs: number) => {
      sweeper.stop();
      // HTTP and the report reader drain together: neither takes new work, both finish what they hold
      await Promise.all([reports.stop({ graceMs }), server.drain(graceMs)]);
    };
    const dispose = () => drain(0);
    return { ...server, drain, dispose, [Symbol.asyncDispose]: dispose };
  });
}
