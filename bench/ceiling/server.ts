// The fair ceiling as a process of its own (bench/ceiling/fanout.ts), on the same NATS stream as
// the gateway; the subscription benchmark starts it as its `fair_ceiling` path.
// tsx --conditions=source bench/ceiling/server.ts   env: NATS_URL, CEILING_TENANT (nca-a), CEILING_FUNCTION_ID, PORT (0)
import { createNatsBus } from '@nvcf/bus';
import { startCeiling } from './fanout.js';

const natsUrl = process.env.NATS_URL;
const functionId = process.env.CEILING_FUNCTION_ID;
if (!natsUrl || !functionId) throw new Error('NATS_URL and CEILING_FUNCTION_ID are required');

const bus = await createNatsBus({ servers: natsUrl, name: 'bench-ceiling' });
const ceiling = await startCeiling({
  bus,
  tenant: process.env.CEILING_TENANT ?? 'nca-a',
  functionId,
  port: Number(process.env.PORT ?? 0),
});
console.log(`fair ceiling listening on ${ceiling.url}`);

const stop = async () => {
  await ceiling[Symbol.asyncDispose]();
  await bus.dispose();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
