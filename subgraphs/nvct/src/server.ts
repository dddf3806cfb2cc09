import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { subgraphSdl } from '@nvcf/schema';
import { build } from '@nvcf/lifecycle';
import type { OperatorRegistry } from '@nvcf/operators';
import { startSubgraph, type RunningSubgraph } from '@nvcf/subgraph-kit';
import type { TaskStore } from './store/index.js';
import { createLoaders, resolvers } from './resolvers.js';
import { systemClock, type Clock } from './tasks.js';

export interface NvctServerOptions {
  store: TaskStore;
  /** the operator registry operator tasks are checked against (the one nvcf checks functions with) */
  registry: OperatorRegistry;
  secret: string;
  port?: number;
  host?: string;
  /** the control plane's now: deadlines and timestamps; tests pass a fake one */
  clock?: Clock;
}

export const buildNvctSchema = (store: TaskStore, registry: OperatorRegistry, clock: Clock = systemClock) =>
  buildSubgraphSchema([{ typeDefs: parse(subgraphSdl('nvct')), resolvers: resolvers(store, registry, clock) }]);

export async function createNvctServer(opts: NvctServerOptions): Promise<RunningSubgraph> {
  return build(async () => {
    const server = await startSubgraph({
      name: 'nvct',
      schema: buildNvctSchema(opts.store, opts.registry, opts.clock),
      secret: opts.secret,
      port: opts.port,
      host: opts.host,
      context: (tenant) => ({ tenant, loaders: createLoaders(opts.store) }),
    });
    const drain = (graceMs: number) => server.drain(graceMs);
    const dispose = () => drain(0);
    return { ...server, drain, dispose, [Symbol.asyncDispose]: dispose };
  });
}
