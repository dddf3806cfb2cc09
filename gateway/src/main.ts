import { setLogLevel } from '@nvcf/logging';
import { connectBus, runMain, startupDeadline } from '@nvcf/service';
import { readGatewayConfig } from './config.js';
import { startGateway } from './server.js';
import { reloadOnSignal } from './supergraph/watch.js';

runMain(
  'gateway',
  () => readGatewayConfig(process.env),
  async (c) => {
    setLogLevel(c.logLevel);
    // the gateway only reads the status stream: the services that write it create the streams
    const bus = await connectBus(c, 'gateway', startupDeadline(c), { ensureStreams: false });
    try {
      const gateway = await startGateway({
        subgraphs: c.subgraphs,
        supergraph: c.supergraph,
        supergraphFile: c.supergraphFile,
        verify: c.verify,
        secret: c.secret,
        cursorSecret: c.cursorSecret,
        bus,
        port: c.port,
        host: c.host,
        metricsPort: c.metricsPort,
        metricsHost: c.metricsHost,
        introspection: c.introspection,
        graphiql: c.graphiql,
        console: c.console,
        pageAuth: c.pageAuth,
        limits: c.limits,
        trustedDocuments: c.trustedDocuments,
        trustedDocumentsFile: c.trustedDocumentsFile,
        trustedManifest: c.trustedManifest,
      });
      // The runtime's HTTP layer disposes itself on the first SIGTERM (@whatwg-node/server's
      // `terminateHandler`), which would cut the requests our drain lets finish: the drain disposes it.
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        for (const l of process.listeners(signal)) if (l.name === 'terminateHandler') process.off(signal, l);
      }
      // SIGHUP reads SUPERGRAPH_FILE again (the file is watched too; the signal is for what a watch misses)
      const unbind = reloadOnSignal(() => gateway.reload());
      return {
        describe: `${gateway.graphqlUrl} (auth ${c.authMode}), metrics ${gateway.metricsUrl}/metrics`,
        drain: async () => {
          unbind();
          try {
            await gateway.drain(c.drainGraceMs);
          } finally {
            await bus.dispose();
          }
        },
      };
    } catch (err) {
      await bus.dispose();
      throw err;
    }
  },
  { graceMs: (c) => c.drainGraceMs },
);
