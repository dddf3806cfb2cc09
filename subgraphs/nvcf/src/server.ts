import { parse } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { subgraphSdl } from '@nvcf/schema';
import { build } from '@nvcf/lifecycle';
import { startSubgraph, inputLimit, type RunningSubgraph } from '@nvcf/subgraph-kit';
import type { Bus, StartAt } from '@nvcf/bus';
import { Nvcf, type NvcfLimits } from './nvcf.js';
import { resolvers } from './resolvers.js';
import { createLoaders } from './loaders.js';
import type { NvcfStore } from './store/index.js';
import { withRolloutMetrics } from './rollout-metrics.js';
import type { IcmsClient } from './icms-client.js';
import type { OperatorRegistry } from '@nvcf/operators';
import { consumeStatus, sweepDeadlines } from './status-consumer.js';

export interface NvcfServerOptions {
  store: NvcfStore;
  bus: Bus;
  icms: IcmsClient;
  registry: OperatorRegistry;
  secret: string;
  port?: number;
  host?: string;
  limits?: Partial<NvcfLimits>;
  /** a rollout not finished by then is FAILED; default 10 minutes */
  revisionDeadlineMs?: number;
  deadlineSweepMs?: number;
  /** durable consumer name on the status stream; replicas of one deployment share it */
  consumerName?: string;
  /** where that durable begins when it is first created (STATUS_CONSUMER_START); default `first` */
  consumerStart?: StartAt;
}

export const buildNvcfSchema = (nvcf: Nvcf) =>
  buildSubgraphSchema([{ typeDefs: parse(subgraphSdl('nvcf')), resolvers: resolvers(nvcf) }]);

export async function createNvcfServer(opts: NvcfServerOptions): Promise<RunningSubgraph & { nvcf: Nvcf }> {
  const nvcf = new Nvcf(
    withRolloutMetrics(opts.store),
    opts.icms,
    opts.registry,
    { maxConfigurationBytes: inputLimit('RevisionInput.configuration').maxBytes!, ...opts.limits },
    opts.revisionDeadlineMs ?? 600_000,
  );
  return build(async (stack) => {
    const consumer = await consumeStatus(nvcf, opts.bus, opts.consumerName, opts.consumerStart);
    stack.defer(() => consumer.stop());
    const sweeper = sweepDeadlines(nvcf, opts.deadlineSweepMs ?? 1000);
    stack.defer(() => sweeper.stop());
    const server = await startSubgraph({
      name: 'nvcf',
      schema: buildNvcfSchema(nvcf),
      secret: opts.secret,
      port: opts.port,
      host: opts.host,
      context: (tenant) => ({ tenant, loaders: createLoaders(opts.store) }),
    });
    const drain = async (graceMs: number) => {
      sweeper.stop();
      // HTTP and the status consumer drain together: neither takes new work, both finish what they hold
      await Promise.all([consumer.stop({ graceMs }), server.drain(graceMs)]);
    };
    const dispose = () => drain(0);
    return { ...server, nvcf, drain, dispose, [Symbol.asyncDispose]: dispose };
  });
}
