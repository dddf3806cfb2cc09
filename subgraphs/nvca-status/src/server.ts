import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { subgraphSdl } from '@nvcf/schema';
import { build } from '@nvcf/lifecycle';
import { startSubgraph, type RunningSubgraph } from '@nvcf/subgraph-kit';
import type { Bus, StartAt } from '@nvcf/bus';
import type { StatusStore } from './store/index.js';
import { resolvers, createLoaders } from './resolvers.js';
import { consumeStatus } from './status-consumer.js';
import { StatusStream, instanceStatus } from '@nvcf/status-stream';

export interface StatusServerOptions {
  store: StatusStore;
  bus: Bus;
  secret: string;
  /** signs resume cursors; shared by every replica */
  cursorSecret: string;
  port?: number;
  host?: string;
  /** durable consumer name on the status stream; replicas of one deployment share it */
  consumerName?: string;
  /** where that durable begins when it is first created (STATUS_CONSUMER_START); default `first` */
  consumerStart?: StartAt;
}

export async function createStatusServer(opts: StatusServerOptions): Promise<RunningSubgraph> {
  // the conventional federated path: the gateway forwards subscriptions here over graphql-ws
  return build(async (stack) => {
    const stream = new StatusStream({ bus: opts.bus, cursorSecret: opts.cursorSecret, definition: instanceStatus });
    await stream.start();
    stack.defer(() => stream.stop());
    const consumer = await consumeStatus(opts.store, opts.bus, opts.consumerName, opts.consumerStart);
    stack.defer(() => consumer.stop());
    const schema = buildSubgraphSchema([
      { typeDefs: parse(subgraphSdl('nvca-status')), resolvers: resolvers(opts.store, stream) },
    ]);
    const server = await startSubgraph({
      name: 'nvca-status',
      schema,
      secret: opts.secret,
      port: opts.port,
      host: opts.host,
      subscriptions: true,
      metrics: () => stream.metrics.render(),
      context: (tenant) => ({ tenant, loaders: createLoaders(opts.store) }),
    });
    const drain = async (graceMs: number) => {
      await stream.stop();
      await Promise.all([consumer.stop({ graceMs }), server.drain(graceMs)]);
    };
    const dispose = () => drain(0);
    return { ...server, drain, dispose, [Symbol.asyncDispose]: dispose };
  });
}
