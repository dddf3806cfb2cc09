// A gateway alone in its own process, bound to SIGHUP as the service's main binds it: the signal
// test sends it a real signal (jest's sandboxed `process` never sees one). It needs no subgraph
// and no NATS: its own memory bus, placeholder subgraph URLs (it serves no query). Prints one
// JSON line, {"metricsUrl"}, once listening; SIGTERM stops it.
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { createMemoryBus } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { startGateway, reloadOnSignal } from '@nvcf/gateway';
import { placeholderUrl } from '@nvcf/schema';

const file = process.argv[2];
if (!file) throw new Error('usage: sighup-gateway.ts SUPERGRAPH_FILE');
const bus = createMemoryBus();
await bus.ensureStreams(allStreams);
const gateway = await startGateway({
  subgraphs: {
    nvcf: placeholderUrl('nvcf'),
    icms: placeholderUrl('icms'),
    'nvca-status': placeholderUrl('nvca-status'),
    nvct: placeholderUrl('nvct'),
  },
  verify: staticTokens(DEV_TOKENS),
  secret: 'sighup-test-secret-0123456789abcdef',
  cursorSecret: 'sighup-test-secret-0123456789abcdef',
  bus,
  supergraphFile: file,
  watchSupergraph: false,
});
const unbind = reloadOnSignal(() => gateway.reload());
process.once('SIGTERM', () => {
  unbind();
  void gateway
    .dispose()
    .then(() => bus.dispose())
    .then(() => process.exit(0));
});
process.stdout.write(`${JSON.stringify({ metricsUrl: gateway.metricsUrl })}\n`);
