/**
 * A gateway replica in a process of its own, so that a fault test can SIGKILL it. Started by
 * gateway-process.ts with everything in the environment; prints its URLs as one JSON line.
 */
import { startGateway } from '@nvcf/gateway';
import { staticTokens } from '@nvcf/auth';
import { createNatsBus } from '@nvcf/messaging';
import { pairs, required } from '@nvcf/config';
import { setLogLevel, levels, type Level } from '@nvcf/logging';

const env = process.env;
const level = env.LOG_LEVEL as Level | undefined;
setLogLevel(level && levels.includes(level) ? level : 'warn');
const secret = required(env, 'NVCF_INTERNAL_SECRET', 'the secret the subgraphs verify tenant assertions with');
const bus = await createNatsBus({ servers: required(env, 'NATS_URL', 'the NATS the system runs on'), name: `gateway-${process.pid}` });
const gateway = await startGateway({
  subgraphs: JSON.parse(required(env, 'GATEWAY_SUBGRAPHS', 'a JSON object: subgraph name -> GraphQL URL')),
  verify: staticTokens(pairs(env, 'AUTH_TOKENS', {})),
  // cursors must verify on every replica: the system signs them with its one secret too
  secret, cursorSecret: secret, bus, port: 0, metricsPort: 0,
});
process.stdout.write(`${JSON.stringify({ url: gateway.url, graphqlUrl: gateway.graphqlUrl, wsUrl: gateway.wsUrl, metricsUrl: gateway.metricsUrl })}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  try { await gateway.dispose(); await bus.dispose(); } finally { process.exit(0); }
};
process.on('SIGTERM', () => void stop());
// the parent holds our stdin: when it goes (a test run ending, even abruptly), so do we
process.stdin.on('end', () => void stop());
process.stdin.resume();
