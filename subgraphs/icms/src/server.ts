import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { subgraphSdl } from '@nvcf/schema';
import { build } from '@nvcf/lifecycle';
import { startSubgraph, type RunningSubgraph } from '@nvcf/subgraph-kit';
import type { Bus, StartAt } from '@nvcf/bus';
import type { IcmsStore } from './store/index.js';
import type { ClusterRecord } from './model.js';
import { resolvers, createLoaders } from './resolvers.js';
import { icmsHandlers } from './icms.js';
import { consumeClusterReports, consumeStatus, consumeTaskEnds } from './status-consumer.js';

export interface IcmsServerOptions {
  store: IcmsStore;
  bus: Bus;
  secret: string;
  /** clusters registered at start (idempotent upsert) */
  clusters?: ClusterRecord[];
  port?: number;
  host?: string;
  /** durable consumer name on the status stream; replicas of one deployment share it */
  consumerName?: string;
  /** where that durable begins when it is first created (STATUS_CONSUMER_START); default `first` */
  consumerStart?: StartAt;
}

export const buildIcmsSchema = (store: IcmsStore) =>
  buildSubgraphSchema([{ typeDefs: parse(subgraphSdl('icms')), resolvers: resolvers(store) }]);

export async function createIcmsServer(opts: IcmsServerOptions): Promise<RunningSubgraph> {
  const existing = new Map((await opts.store.listClusters()).map((c) => [c.id, c]));
  for (const c of opts.clusters ?? [])
    await opts.store.putCluster({ ...c, dedicatedTo: existing.get(c.id)?.dedicatedTo ?? null });
  return build(async (stack) => {
    const consumer = await consumeStatus(opts.store, opts.bus, opts.consumerName, opts.consumerStart);
    stack.defer(() => consumer.stop());
    const reports = await consumeClusterReports(opts.store, opts.bus, opts.consumerName, opts.consumerStart);
    stack.defer(() => reports.stop());
    const taskEnds = await consumeTaskEnds(opts.store, opts.bus, opts.consumerName, opts.consumerStart);
    stack.defer(() => taskEnds.stop());
    const server = await startSubgraph({
      name: 'icms',
      schema: buildIcmsSchema(opts.store),
      secret: opts.secret,
      port: opts.port,
      host: opts.host,
      context: (tenant) => ({ tenant, loaders: createLoaders(opts.store) }),
      rpc: icmsHandlers(opts.store, opts.bus),
    });
    const drain = async (graceMs: number) => {
      await Promise.all([
        consumer.stop({ graceMs }),
        reports.stop({ graceMs }),
        taskEnds.stop({ graceMs }),
        server.drain(graceMs),
      ]);
    };
    const dispose = () => drain(0);
    return { ...server, drain, dispose, [Symbol.asyncDispose]: dispose };
  });
}
