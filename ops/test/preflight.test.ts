import { randomBytes } from 'node:crypto';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createNatsBus, natsStreamConfig } from '@nvcf/bus';
import { allStreams, Streams } from '@nvcf/contracts';
import { createCassandraClient, createMigrator, type CassandraClient } from '@nvcf/cassandra';
import { describeReal, realEnv, runOpsCommand } from '@nvcf/test';
import { startPrivateNats, type PrivateNats } from '../../test/services/nats-private.js';
import { DEFAULT_MIGRATIONS_DIR, runPreflight, type PreflightOptions, type PreflightResult } from '../src/index.js';

const KEYSPACES = ['icms_api', 'nvca_status', 'nvcf_api', 'nvct_api'];

const check = (r: PreflightResult, name: string) => r.checks.find((c) => c.check === name);
const failed = (r: PreflightResult) => r.checks.filter((c) => c.status === 'FAIL').map((c) => c.check);

const runPreflightCli = (args: string[], env: Record<string, string>) => runOpsCommand('preflight', args, env);

describeReal('preflight: NATS JetStream and Cassandra', () => {
  // a private NATS: the shared one's work queues hold whatever the tests running beside us publish
  let nats: PrivateNats;
  let nc: NatsConnection;
  let cql: CassandraClient;
  const suffix = `_${randomBytes(4).toString('hex')}`;
  let opts: PreflightOptions;

  beforeAll(async () => {
    const env = realEnv();
    nats = await startPrivateNats();
    {
      await using bus = await createNatsBus({ servers: nats.url });
      await bus.ensureStreams(allStreams);
    }
    {
      await using m = await createMigrator({
        contactPoints: env.contactPoints,
        localDataCenter: env.localDataCenter,
        dir: DEFAULT_MIGRATIONS_DIR,
        keyspaceSuffix: suffix,
      });
      await m.up();
    }
    nc = await connect({ servers: nats.url });
    cql = await createCassandraClient({ contactPoints: env.contactPoints, localDataCenter: env.localDataCenter });
    opts = {
      natsUrl: nats.url,
      contactPoints: env.contactPoints,
      localDataCenter: env.localDataCenter,
      keyspaceSuffix: suffix,
    };
  }, 180_000);

  afterAll(async () => {
    await nc?.close();
    if (cql) {
      for (const k of KEYSPACES) await cql.execute(`DROP KEYSPACE IF EXISTS ${k}${suffix}`);
      await cql.execute(
        'DELETE FROM schema_migrations.ledger WHERE keyspace_name IN ?',
        [KEYSPACES.map((k) => `${k}${suffix}`)],
        { prepare: true },
      );
      await cql.dispose();
    }
    await nats?.[Symbol.asyncDispose]();
  });

  it('passes on a migrated system with its streams, and says so on the command line', async () => {
    const r = await runPreflight(opts);
    expect(failed(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.check)).toEqual(
      expect.arrayContaining([
        ...allStreams.map((s) => `stream ${s.name}`),
        ...allStreams.filter((s) => s.retention === 'workqueue').map((s) => `drained ${s.name}`),
        ...KEYSPACES.map((k) => `ledger ${k}${suffix}`),
      ]),
    );
    const cli = await runPreflightCli(['--keyspace-suffix', suffix], {
      NATS_URL: nats.url,
      CASSANDRA_CONTACT_POINTS: opts.contactPoints.join(','),
      CASSANDRA_LOCAL_DC: opts.localDataCenter,
    });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(new RegExp(`^ledger nvcf_api${suffix}\\s+OK\\s+version 2, clean$`, 'm'));
    expect(cli.stdout).toContain('preflight passed');
  });

  it('fails naming the stream whose configuration differs from what this release sets', async () => {
    const jsm = await jetstreamManager(nc);
    const spec = Streams.status;
    await jsm.streams.delete(spec.name);
    await jsm.streams.add({ ...natsStreamConfig(spec), max_msgs: 10 });
    try {
      const r = await runPreflight(opts);
      expect(r.ok).toBe(false);
      expect(failed(r)).toEqual([`stream ${spec.name}`]);
      expect(check(r, `stream ${spec.name}`)!.detail).toBe('max_msgs is 10, expected -1');
    } finally {
      await jsm.streams.delete(spec.name);
      await jsm.streams.add(natsStreamConfig(spec));
    }
  });

  it('fails naming a missing stream', async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(Streams.terminate.name);
    try {
      const r = await runPreflight(opts);
      expect(failed(r)).toEqual([`stream ${Streams.terminate.name}`]);
      expect(check(r, `stream ${Streams.terminate.name}`)!.detail).toMatch(/^missing/);
    } finally {
      await jsm.streams.add(natsStreamConfig(Streams.terminate));
    }
  });

  it('fails when a work queue holds a message, listing it by subject and consumer', async () => {
    const jsm = await jetstreamManager(nc);
    const stream = Streams.create.name;
    await jsm.consumers.add(stream, {
      durable_name: `${stream}-preflight-a`,
      filter_subject: 'Create.NVCA.preflight-a',
      ack_policy: AckPolicy.Explicit,
    });
    const js = jetstream(nc);
    await js.publish('Create.NVCA.preflight-a', '{}');
    await js.publish('Create.NVCA.preflight-b', '{}');
    try {
      const r = await runPreflight(opts);
      expect(failed(r)).toEqual([`drained ${stream}`]);
      const detail = check(r, `drained ${stream}`)!.detail;
      expect(detail).toContain('2 pending');
      expect(detail).toContain('Create.NVCA.preflight-a=1');
      expect(detail).toContain('Create.NVCA.preflight-b=1');
      expect(detail).toContain(`${stream}-preflight-a 1 undelivered`);
      const cli = await runPreflightCli(['--json', '--keyspace-suffix', suffix], {
        NATS_URL: nats.url,
        CASSANDRA_CONTACT_POINTS: opts.contactPoints.join(','),
        CASSANDRA_LOCAL_DC: opts.localDataCenter,
      });
      expect(cli.code).toBe(1);
      expect(JSON.parse(cli.stdout)).toMatchObject({
        ok: false,
        checks: expect.arrayContaining([{ check: `drained ${stream}`, status: 'FAIL', detail }]),
      });
    } finally {
      await jsm.consumers.delete(stream, `${stream}-preflight-a`);
      await jsm.streams.purge(stream);
    }
  });

  it('fails when a keyspace ledger is dirty, and when a keyspace was never migrated', async () => {
    const ks = `nvcf_api${suffix}`;
    await cql.execute('UPDATE schema_migrations.ledger SET dirty = true WHERE keyspace_name = ?', [ks], {
      prepare: true,
    });
    try {
      const r = await runPreflight(opts);
      expect(failed(r)).toEqual([`ledger ${ks}`]);
      expect(check(r, `ledger ${ks}`)!.detail).toMatch(/^dirty at version 2/);
    } finally {
      await cql.execute('UPDATE schema_migrations.ledger SET dirty = false WHERE keyspace_name = ?', [ks], {
        prepare: true,
      });
    }
    const fresh = await runPreflight({ ...opts, keyspaceSuffix: `_${randomBytes(4).toString('hex')}` });
    expect(
      fresh.checks.filter((c) => c.check.startsWith('ledger ')).map((c) => [c.status, c.detail.split(',')[0]]),
    ).toEqual(KEYSPACES.map(() => ['FAIL', 'never migrated']));
  });

  it('fails, naming them, when the backends cannot be reached', async () => {
    const r = await runPreflight({
      ...opts,
      natsUrl: 'nats://127.0.0.1:1',
      contactPoints: ['127.0.0.1:1'],
      timeoutMs: 2000,
    });
    expect(r.ok).toBe(false);
    expect(r.checks.map((c) => [c.check, c.status])).toEqual([
      ['nats', 'FAIL'],
      ['cassandra', 'FAIL'],
    ]);
    expect(check(r, 'nats')!.detail).toContain('cannot connect to nats://127.0.0.1:1');
    expect(check(r, 'cassandra')!.detail).toContain('cannot connect to Cassandra at 127.0.0.1:1');
  });
});
