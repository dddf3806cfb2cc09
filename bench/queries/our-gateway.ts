import { startGateway } from '@nvcf/gateway';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';

/**
 * Our gateway (gateway/src, as `npm start` runs it) serving the benchmark's supergraph. The
 * status stream it also serves reads an idle in-memory bus: queries are what is measured.
 */
export async function startOurGateway(supergraph: string, port = 0) {
  const bus = createMemoryBus();
  await bus.ensureStreams(allStreams);
  const unused = 'http://unused.invalid/graphql';
  return startGateway({
    supergraph,
    subgraphs: { nvcf: unused, icms: unused, 'nvca-status': unused, nvct: unused },
    verify: staticTokens(DEV_TOKENS),
    secret: 'bench-secret',
    cursorSecret: 'bench-cursor',
    bus,
    port,
    host: '127.0.0.1',
    // one tenant drives all the load, and no peer rate-limits: the guard's other checks stay on
    limits: { operationsPerSecond: 0, subscriptionsPerSecond: 0 },
  });
}
