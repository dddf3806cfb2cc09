import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createSimulatedCluster } from '@nvcf/agent';
import { createCassandraClient, createMigrator } from '@nvcf/cassandra';
import { FunctionsDocument, SpecUpdateActionsDocument } from '@nvcf/client';
import { allStreams, Streams } from '@nvcf/contracts';
import { DisposalStack } from '@nvcf/lifecycle';
import { MIGRATIONS_DIR } from '@nvcf/local/topology';
import { restoreBackup, type Manifest } from '@nvcf/ops';
import { waitUntil } from '@nvcf/testing';
import {
  deployedHelm,
  describeReal,
  httpClient,
  ok,
  readSpec,
  realEnv,
  runOpsCommand,
  startRealSystem,
  submit,
  waitRevision,
} from '@nvcf/test';
import { startPrivateNats, type PrivateNats } from '../services/nats-private.js';
import { fast } from './suites/system.js';

const FOLDERS = ['icms_api', 'nvca_status', 'nvcf_api', 'nvct_api'];

describeReal('backup and restore: NATS JetStream and Cassandra with work in flight', () => {
  // a private NATS: restoring a stream replaces it whole, which other test systems would feel
  const stack = new DisposalStack();
  const { contactPoints, localDataCenter } = realEnv();
  const suffix = `_${randomBytes(4).toString('hex')}`;
  const older = `_${randomBytes(4).toString('hex')}`;
  const work = mkdtempSync(join(tmpdir(), 'backup-'));
  let nats: PrivateNats;
  // the simulated clusters keep their objects in files, as a real cluster outlives its control plane
  const options = {
    ...fast,
    revisionDeadlineMs: 120_000,
    driver: (clusterId: string) =>
      createSimulatedCluster({ clusterId, startDelayMs: 20, updateDelayMs: 20, stateFile: join(work, clusterId) }),
  };
  const env = (keyspaceSuffix: string) => ({
    NATS_URL: nats.url,
    CASSANDRA_CONTACT_POINTS: contactPoints.join(','),
    CASSANDRA_LOCAL_DC: localDataCenter,
    CASSANDRA_KEYSPACE_SUFFIX: keyspaceSuffix,
  });
  const dropKeyspaces = async (s: string, folders = FOLDERS) => {
    await using client = await createCassandraClient({ contactPoints, localDataCenter });
    const names = folders.map((f) => `${f}${s}`);
    for (const k of names) await client.execute(`DROP KEYSPACE IF EXISTS ${k}`);
    await client.execute('DELETE FROM schema_migrations.ledger WHERE keyspace_name IN ?', [names], { prepare: true });
  };
  // the write timestamps the status readers resolve by (USING TIMESTAMP <clock>): a restored cell must keep its own
  const writetimes = async () => {
    await using client = await createCassandraClient({ contactPoints, localDataCenter });
    const rows = await client.execute(
      `SELECT instance_id, writetime(doc) AS at FROM nvcf_api${suffix}.instance_observations`,
    );
    return Object.fromEntries(rows.rows.map((r) => [r.get('instance_id') as string, String(r.get('at'))]));
  };
  // every message of the work queues, and what each consumer has yet to deliver or see acknowledged:
  // what "pending work" is (a filtered consumer's ack floor is the server's to move past others' messages)
  const workQueues = async () => {
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      const out: Record<string, unknown> = {};
      for (const stream of [Streams.create, Streams.update, Streams.terminate]) {
        const { state } = await jsm.streams.info(stream.name);
        const messages = [];
        for (let seq = state.first_seq; seq <= state.last_seq && state.messages; seq++) {
          const m = await jsm.streams.getMessage(stream.name, { seq });
          if (m) messages.push({ seq, subject: m.subject, data: m.string() });
        }
        const consumers = [];
        for await (const c of jsm.consumers.list(stream.name))
          consumers.push({ name: c.name, pending: c.num_pending, ackPending: c.num_ack_pending });
        out[stream.name] = { messages, consumers };
      }
      return out;
    } finally {
      await nc.close();
    }
  };

  beforeAll(async () => {
    nats = stack.use(await startPrivateNats());
  }, 60_000);
  afterAll(async () => {
    await stack.disposeAsync();
    await dropKeyspaces(suffix);
    await dropKeyspaces(older);
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('restores every function, revision, instance state and pending work message of a destroyed system', async () => {
    const set = join(work, 'set');
    let before: {
      functions: unknown;
      spec: unknown;
      actions: unknown;
      queues: Record<string, unknown>;
      writetimes: Record<string, string>;
    };
    let specId: string;
    {
      await using first = await startRealSystem(options, { natsUrl: nats.url, suffix, keep: true });
      const a = httpClient(first.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 2, maxInstances: 2 });
      specId = d.specId;
      // work in flight: an update whose messages wait for agents that are not running
      for (const c of first.clusters) await first.stopAgent(c.id);
      ok(await submit(a, specId, { replicas: 1, model: 'v2' }));
      const queues = await waitUntil(
        async () => {
          const q = await workQueues();
          return JSON.stringify(q).includes('"subject":"Update.NVCA.') && q;
        },
        { what: 'the update waiting in its work queue' },
      );
      before = {
        functions: ok(await a(FunctionsDocument, {})).functions,
        spec: await readSpec(a, specId),
        actions: ok(await a(SpecUpdateActionsDocument, { id: specId })).gpuSpecification,
        queues,
        writetimes: await writetimes(),
      };
      expect(Object.keys(before.writetimes).sort()).toEqual([...d.instanceIds].sort());
      expect(before.spec).toMatchObject({ latestRevision: { status: 'ROLLING_OUT' } });

      const taken = await runOpsCommand('backup', [set], env(suffix));
      expect([taken.code, taken.stderr]).toEqual([0, expect.any(String)]);
      expect(taken.stdout).toContain(`backup set written to ${set}`);
    }
    const manifest = JSON.parse(readFileSync(join(set, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.nats.streams.map((s) => s.name)).toEqual(allStreams.map((s) => s.name));
    expect(manifest.cassandra.keyspaces.map((k) => [k.folder, k.ledgerVersion])).toEqual([
      ['icms_api', 3],
      ['nvca_status', 1],
      ['nvcf_api', 2],
      ['nvct_api', 2],
    ]);
    // the manifest names what the snapshot holds: the waiting update, not yet delivered to its agent's durable
    const update = manifest.nats.streams.find((s) => s.name === Streams.update.name)!;
    expect(update.messages).toBeGreaterThan(0);
    expect(update.consumers.reduce((n, c) => n + c.pending, 0)).toBe(update.messages);

    // destroyed: every stream, every keyspace and its ledger
    {
      const nc = await connect({ servers: nats.url });
      const jsm = await jetstreamManager(nc);
      for await (const name of jsm.streams.names()) await jsm.streams.delete(name);
      await nc.close();
    }
    await dropKeyspaces(suffix);

    const restored = await runOpsCommand('restore', [set], env(suffix));
    expect([restored.code, restored.stderr]).toEqual([0, expect.any(String)]);
    expect(await workQueues()).toEqual(before.queues);
    expect(await writetimes()).toEqual(before.writetimes);

    // no agent yet: what the restored stores answer is what the first system answered
    const second = await startRealSystem({ ...options, agents: 'external' }, { natsUrl: nats.url, suffix });
    stack.defer(() => second.dispose());
    const a = httpClient(second.url, 'dev-token-a');
    expect(ok(await a(FunctionsDocument, {})).functions).toEqual(before.functions);
    expect(await readSpec(a, specId)).toEqual(before.spec);
    expect(ok(await a(SpecUpdateActionsDocument, { id: specId })).gpuSpecification).toEqual(before.actions);

    // the agents come back: the restored work message and consumers finish the rollout
    for (const c of second.clusters) await second.startAgent(c.id);
    const done = await waitRevision(a, specId, 'APPLIED', 30_000);
    expect(done.instances.map((i) => i.state)).toEqual(['ACTIVE', 'ACTIVE']);

    const again = await runOpsCommand('restore', [set], env(suffix));
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(`restore: refused (RESTORE_TARGET_NOT_EMPTY): icms_api${suffix} holds rows`);
  }, 120_000);

  it('refuses a set from an older ledger version; an empty store takes it and migrates on', async () => {
    const set = join(work, 'older');
    {
      await using migrator = await createMigrator({
        contactPoints,
        localDataCenter,
        dir: MIGRATIONS_DIR,
        keyspaceSuffix: older,
      });
      await migrator.up(`icms_api${older}`);
      await migrator.up(`nvca_status${older}`);
      await migrator.up(`nvct_api${older}`);
      await migrator.goto(`nvcf_api${older}`, 1, { expect: 0 });
      expect((await runOpsCommand('backup', [set], env(older))).code).toBe(0);
      await migrator.up(`nvcf_api${older}`);
    }

    const refused = await runOpsCommand('restore', [set, '--replace'], env(older));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      `restore: refused (BACKUP_INCOMPATIBLE): nvcf_api${older}: restore into a store migrated to 2, the set is at 1 < 2: run restore against a store at 1`,
    );
    expect(refused.stderr).toContain('then `npm run migrate -- up`');
    // and a set from a later release than this one's migrations
    const original = readFileSync(join(set, 'manifest.json'), 'utf8');
    const later = JSON.parse(original) as Manifest;
    later.cassandra.keyspaces.find((k) => k.folder === 'nvcf_api')!.ledgerVersion = 9;
    writeFileSync(join(set, 'manifest.json'), JSON.stringify(later));
    await expect(
      restoreBackup({
        dir: set,
        natsUrl: nats.url,
        contactPoints,
        localDataCenter,
        keyspaceSuffix: older,
        migrationsDir: MIGRATIONS_DIR,
        replace: true,
        log: () => {},
      }),
    ).rejects.toMatchObject({
      name: 'BackupRefused',
      code: 'BACKUP_INCOMPATIBLE',
      message: `nvcf_api${older}: the set is at ledger version 9, newer than this release's migrations (up to 2): restore with the release that took it`,
    });
    writeFileSync(join(set, 'manifest.json'), original);

    // what the message says: an empty keyspace, restored (migrated to 1 by restore), then migrate up;
    // the others are at the set's versions and --replace empties them
    await dropKeyspaces(older, ['nvcf_api']);
    const restored = await runOpsCommand('restore', [set, '--replace'], env(older));
    expect([restored.code, restored.stderr]).toEqual([
      0,
      expect.stringContaining(`nvcf_api${older} restored at ledger version 1`),
    ]);
    await using migrator = await createMigrator({
      contactPoints,
      localDataCenter,
      dir: MIGRATIONS_DIR,
      keyspaceSuffix: older,
    });
    expect((await migrator.status()).map((s) => [s.keyspace, s.version])).toEqual([
      [`icms_api${older}`, 3],
      [`nvca_status${older}`, 1],
      [`nvcf_api${older}`, 1],
      [`nvct_api${older}`, 2],
    ]);
    expect((await migrator.up()).map((m) => m.file)).toEqual(['002_instance_observations.cql']);
  }, 90_000);
});
