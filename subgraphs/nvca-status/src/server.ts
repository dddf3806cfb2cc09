import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { subgraphSdl } from '@nvcf/schema';
import { startSubgraph, type RunningSubgraph } from '@nvcf/subgraph-kit';
import type { Bus } from '@nvcf/messaging';
import type { StatusStore } from './store/index.js';
import { resolvers, createLoaders } from './resolvers.js';
import { consumeStatus } from './status-consumer.js';
import { StatusHub } from './hub.js';

export interface StatusServerOptions {
  store: StatusStore;
  bus: Bus;
  secret: string;
  /** signs resume cursors; shared by every replica */
  cursorSecret: string;
  port?: number;
  host?: string;
}

export async function createStatusServer(opts: StatusServerOptions): Promise<RunningSubgraph> {
  const hub = new StatusHub(opts.bus, opts.cursorSecret);
  await hub.start();
  const consumer = await consumeStatus(opts.store, opts.bus);
  const schema = buildSubgraphSchema({ typeDefs: parse(subgraphSdl('nvca-status')), resolvers: resolvers(opts.store, hub) as any });
  const server = await startSubgraph({
    name: 'nvca-status', schema, secret: opts.secret, port: opts.port, host: opts.host, subscriptions: true, metrics: () => hub.metrics(),
    context: (tenant) => ({ tenant, loaders: createLoaders(opts.store) }),
  });
  const dispose = async () => {
    await server.dispose();
    await consumer.stop();
    await hub.stop();
  };
  return { ...server, dispose, [Symbol.asyncDispose]: dispose };
}
