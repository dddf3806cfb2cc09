// The Cosmo router's EDFS as a subscription peer: the router subscribes to the status subjects on
// NATS itself and fans each event out to the subscriptions whose function it matches. An EDFS
// subgraph (an "event-driven graph") declares entity stubs whose fields all belong to the key; the
// subscription here selects only those fields, so each event is answered from its payload with no
// subgraph fetch, as our gateway answers the fields a status event carries. What the router does
// not do that ours does: authenticate the socket, scope by the caller's tenant (here the subject is
// the benchmark tenant's, fixed in the schema) and sign a resume cursor per event.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { subjects } from '@nvcf/contracts';
import { ensureCosmoRouter } from '../peers/native/build.js';
import {
  COSMO_OFFLINE,
  composeCosmoConfig,
  cosmoRouterConfig,
  writeCosmoExecutionConfig,
} from '../peers/native/cosmo.js';
import { waitUntil, GiveUp } from '@nvcf/testing';
import { freePort, spawnProcess } from '../lib.js';
import type { Path } from './targets.js';

/** the tenant whose status subjects the router subscribes to (the load's tenant) */
const TENANT = 'nca-a';

/** Status events of one function, straight from the NATS message (the fields of StatusEvent it names). */
export const EDFS_SDL = `
input edfs__NatsStreamConfiguration {
  consumerInactiveThreshold: Int! = 30
  consumerName: String!
  streamName: String!
}

type Subscription {
  instanceStatusChanged(functionId: ID!): InstanceStatusEvent!
    @edfs__natsSubscribe(subjects: ["${subjects.statusOfTenant(TENANT)}"])
    @openfed__subscriptionFilter(condition: { IN: { fieldPath: "functionId", values: ["{{ args.functionId }}"] } })
}

type InstanceStatusEvent @key(fields: "functionId instanceId state at message", resolvable: false) {
  functionId: ID! @external
  instanceId: ID! @external
  state: String! @external
  at: String! @external
  message: String! @external
}
`;

/**
 * The load's subscription on this path: the fields the event carries, `message` holding its publish
 * time. The function id is inline: the router's subscription filter reads a literal argument but not
 * a variable's value (router 0.341.0 delivered nothing with `functionId: $f`).
 */
export const edfsQuery = (functionId: string) =>
  `subscription { instanceStatusChanged(functionId: ${JSON.stringify(functionId)}) { instanceId state at message } }`;

/**
 * Composition wants every field resolvable somewhere, so a subgraph owns the entity too; the router
 * never calls it (its URL points nowhere): a selection of key fields is answered from the event.
 */
const OWNER_SDL = `
type Query {
  placeholder: String
}

type InstanceStatusEvent @key(fields: "functionId instanceId state at message") {
  functionId: ID!
  instanceId: ID!
  state: String!
  at: String!
  message: String!
}
`;

export type CosmoEdfs = { bin: string; version: string; executionConfig: string } | { skipped: string };

/** The router binary and the execution config composed for EDFS, or why this peer cannot run here. */
export function prepareCosmoEdfs(): CosmoEdfs {
  const router = ensureCosmoRouter();
  if ('skipped' in router) return { skipped: router.skipped };
  const config = composeCosmoConfig([
    { name: 'status-events', sdl: EDFS_SDL },
    { name: 'status-owner', sdl: OWNER_SDL },
  ]);
  if ('skipped' in config) return { skipped: `Cosmo EDFS: ${config.skipped}` };
  return { ...router, executionConfig: config.path };
}

/** The router on a free port, subscribed to NATS at `natsUrl`; ready when it returns. */
export async function startCosmoEdfs(natsUrl: string) {
  const peer = prepareCosmoEdfs();
  if ('skipped' in peer) throw new Error(peer.skipped);
  // its own directory: the router reads a .env from where it starts
  const dir = mkdtempSync(join(tmpdir(), 'bench-cosmo-edfs-'));
  const executionConfig = join(dir, 'execution-config.json');
  writeCosmoExecutionConfig(peer.executionConfig, 'http://127.0.0.1:9', executionConfig);
  const port = await freePort();
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    cosmoRouterConfig({
      port,
      executionConfig,
      extra: ['events:', '  providers:', '    nats:', '      - id: default', `        url: ${JSON.stringify(natsUrl)}`],
    }),
  );
  const p = spawnProcess(peer.bin, ['-config', config], { cwd: dir, env: COSMO_OFFLINE });
  try {
    await waitUntil(
      async () => {
        if (p.child.exitCode !== null)
          throw new GiveUp(`the Cosmo router exited (${p.child.exitCode}) before it was ready`);
        return (await fetch(`http://127.0.0.1:${port}/health/ready`)).ok;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'the Cosmo router ready' },
    );
  } catch (err) {
    await p.stop();
    throw err;
  }
  return { wsUrl: `ws://127.0.0.1:${port}/graphql`, query: edfsQuery, rssMb: p.rssMb, stop: p.stop };
}

/** The sweep's paths with this peer added when it can run here; otherwise why not. */
export function withCosmoEdfs(paths: Path[]): { paths: Path[]; skipped: string | null } {
  if (paths.includes('cosmo_edfs')) return { paths, skipped: null };
  const peer = prepareCosmoEdfs();
  if ('skipped' in peer) return { paths, skipped: peer.skipped };
  return { paths: [...paths, 'cosmo_edfs'], skipped: null };
}
