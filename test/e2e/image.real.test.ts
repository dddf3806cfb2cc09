/**
 * The container image, without Docker: what the Dockerfile's stages do, step by step. `npm run
 * build`; a fresh folder with only what the runtime stage holds (scripts/image-files.ts: the
 * manifests, then `npm ci --omit=dev --ignore-scripts`, then bin/, dist/ and the assets); then
 * every process started from it the way the image starts it, `node bin/nvcf.js <service>`, with
 * plain node, NODE_ENV=production and a HOME that does not exist, on the run's NATS and Cassandra.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCassandraClient } from '@nvcf/cassandra';
import { waitUntil, GiveUp } from '@nvcf/testing';
import { describeReal, realEnv, buildDist, httpClient, deployedHelm, deleteDurables } from '@nvcf/test';
import { copyFiles, manifestFiles, runtimeFiles } from '../../scripts/image-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVICES = ['gateway', 'nvcf', 'icms', 'nvca-status', 'nvct', 'agent'] as const;
type Service = (typeof SERVICES)[number];

interface Proc {
  name: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** exit code, or the signal's name */
  exited: Promise<number | string>;
}

/** Runs `cmd` to completion (npm ci); rejects with its output on failure. */
function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${out.slice(-6000)}`)),
    );
  });
}

/** Paths and sizes of every file under `dir`: the image must not write into itself. */
function listing(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => {
      const f = path.join(e.parentPath, e.name);
      return `${path.relative(dir, f)} ${e.isFile() ? fs.statSync(f).size : 'link'}`;
    })
    .sort();
}

describeReal('the container image, staged without Docker', () => {
  const tag = randomBytes(4).toString('hex');
  const suffix = `_img${tag}`;
  const clusterId = `img-${tag}`;
  const procs: Proc[] = [];
  const urls = {} as Record<Service, string>;
  let work: string; // secrets and the clusters file: outside the image, as mounted files would be
  let stage: string;
  let before: string[];
  let homeExisted: boolean;
  let env: Record<string, string>;

  /** `node bin/nvcf.js …` from the staged image, with only the environment given. */
  function start(name: string, args: string[], extra: Record<string, string>): Proc {
    const child = spawn(process.execPath, ['bin/nvcf.js', ...args], {
      cwd: stage,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', NODE_ENV: 'production', ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | string>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
    );
    const p = { name, child, stdout: () => stdout, stderr: () => stderr, exited };
    procs.push(p);
    return p;
  }

  /** Starts a service on an ephemeral port and resolves with the URLs of its `started: …` line. */
  async function service(name: Service, extra: Record<string, string>): Promise<{ proc: Proc; urls: string[] }> {
    const proc = start(name, [name], { ...env, ...extra });
    let done = false;
    void proc.exited.then(() => (done = true));
    const line = await waitUntil(
      () => {
        const m = /started: (.*)/.exec(proc.stderr());
        if (!m && done) throw new GiveUp(`${name} exited before it started:\n${proc.stderr().slice(-4000)}`);
        return m?.[1];
      },
      { timeoutMs: 60_000, intervalMs: 50, what: `${name} to start` },
    );
    return { proc, urls: [...line.matchAll(/http:\/\/[^\s,)"]+/g)].map((m) => m[0]) };
  }

  beforeAll(async () => {
    const buildMs = await buildDist();
    stage = fs.mkdtempSync(path.join(os.tmpdir(), 'nvcf-image-')); // never under the repo: jest would see its package.json files
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'nvcf-image-work-'));
    copyFiles(ROOT, manifestFiles(ROOT), stage);
    // the warm npm cache serves every tarball; the image's deps stage runs the same without --offline
    const t = performance.now();
    await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], stage);
    const installMs = Math.round(performance.now() - t);
    const files = runtimeFiles(ROOT);
    copyFiles(ROOT, files, stage);
    before = listing(stage);
    homeExisted = fs.existsSync('/nonexistent');
    process.stderr.write(
      `[image] npm run build ${buildMs} ms, npm ci --omit=dev ${installMs} ms, ${files.length} runtime files, ${before.length} files staged in ${stage}\n`,
    );

    const { natsUrl, contactPoints, localDataCenter } = realEnv();
    fs.writeFileSync(path.join(work, 'internal-secret'), randomBytes(32).toString('hex'));
    fs.writeFileSync(
      path.join(work, 'clusters.json'),
      JSON.stringify([
        {
          id: clusterId,
          name: `image-${tag}`,
          ncaId: 'nca-platform',
          authorizedNcaIds: ['nca-a'],
          attributes: [],
          regions: ['us-west-2'],
          gpus: [{ name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'] }],
        },
      ]),
    );
    env = {
      NATS_URL: natsUrl,
      CASSANDRA_CONTACT_POINTS: contactPoints.join(','),
      CASSANDRA_LOCAL_DC: localDataCenter,
      CASSANDRA_KEYSPACE_SUFFIX: suffix,
      NVCF_INTERNAL_SECRET_FILE: path.join(work, 'internal-secret'),
      NVCF_CURSOR_SECRET: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: '0',
      DRAIN_GRACE_MS: '5000',
      LOG_LEVEL: 'info',
    };
  }, 240_000);

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    const { natsUrl, contactPoints, localDataCenter } = realEnv();
    await using client = await createCassandraClient({ contactPoints, localDataCenter });
    const keyspaces = ['nvcf_api', 'icms_api', 'nvca_status', 'nvct_api'].map((k) => `${k}${suffix}`);
    for (const k of keyspaces) await client.execute(`DROP KEYSPACE IF EXISTS ${k}`);
    await client
      .execute('DELETE FROM schema_migrations.ledger WHERE keyspace_name IN ?', [keyspaces], { prepare: true })
      .catch(() => undefined);
    // this run's durables (status readers, the agent's work queues) go with it
    await deleteDurables(natsUrl, tag);
    if (stage) fs.rmSync(stage, { recursive: true, force: true });
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('holds production dependencies only: no TypeScript, no tsx, no sources; every package loads from dist/', async () => {
    for (const dev of ['typescript', 'tsx', 'jest', '@swc/core', 'esbuild'])
      expect(fs.existsSync(path.join(stage, 'node_modules', dev))).toBe(false);
    expect(before.filter((f) => /\.ts /.test(f) && !f.startsWith('node_modules/'))).toEqual([]);
    expect(before.filter((f) => f.includes('/src/') && !f.startsWith('node_modules/'))).toEqual([]);
    // every entry the services use, the Kubernetes driver (loaded on demand) included
    const entries = [
      '@nvcf/gateway',
      '@nvcf/subgraph-nvcf',
      '@nvcf/subgraph-icms',
      '@nvcf/subgraph-nvca-status',
      '@nvcf/subgraph-nvct',
      '@nvcf/agent',
      '@nvcf/agent/kubernetes',
      '@nvcf/ops',
      '@nvcf/cassandra',
      '@nvcf/schema',
    ];
    const load = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `for (const e of ${JSON.stringify(entries)}) { const r = import.meta.resolve(e); if (!r.includes('/dist/')) throw new Error(e + ' resolved to ' + r); await import(e); }`,
      ],
      {
        cwd: stage,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    load.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((resolve) => load.once('exit', (code) => resolve({ code, err })))).toEqual({
      code: 0,
      err: '',
    });
  }, 60_000);

  it('refuses a bad configuration value with one line and exit 1, and an unknown command with usage', async () => {
    const bad = { ...env, PORT: 'eighty' };
    const runs = SERVICES.map((s) =>
      start(
        `${s} (bad config)`,
        [s],
        s === 'gateway'
          ? { ...bad, AUTH_MODE: 'dev', AUTH_TOKENS: 'dev-token-a=nca-a' }
          : { ...bad, CLUSTER_ID: clusterId },
      ),
    );
    for (const p of runs) {
      expect({ service: p.name, code: await p.exited, stdout: p.stdout(), stderr: p.stderr() }).toEqual({
        service: p.name,
        code: 1,
        stdout: '',
        stderr: "configuration error: PORT must be an integer between 0 and 65535 (got 'eighty')\n",
      });
    }
    const unknown = start('unknown', ['web'], {});
    expect(await unknown.exited).toBe(2);
    expect(unknown.stderr()).toMatch(
      /^usage: nvcf <gateway\|nvcf\|icms\|nvca-status\|nvct\|agent\|nvca-webhook\|migrate\|[a-z|]+> \[arguments\] \(got 'web'\)/,
    );
  }, 60_000);

  it('migrates its keyspaces with the built migrate entry', async () => {
    const migrate = start('migrate', ['migrate', 'up'], env);
    expect({ code: await migrate.exited, stderr: migrate.stderr().slice(-2000) }).toMatchObject({ code: 0 });
    expect(migrate.stdout()).toMatch(new RegExp(`applied .*nvcf_api${suffix}/`));
    const status = start('migrate status', ['migrate', 'status'], env);
    expect(await status.exited).toBe(0);
    for (const k of ['nvcf_api', 'icms_api', 'nvca_status', 'nvct_api'])
      expect(status.stdout()).toMatch(new RegExp(`${k}${suffix} .*up to date`));
  }, 120_000);

  it('starts every service on NATS and Cassandra; each answers /health, /ready and /metrics', async () => {
    // durables of its own, from new events on: the shared stream's history is other suites'
    const consumer = (name: string) => ({ STATUS_CONSUMER_NAME: `${name}-img${tag}`, STATUS_CONSUMER_START: 'new' });
    const [icms, status, agent] = await Promise.all([
      service('icms', { ...consumer('icms'), ICMS_CLUSTERS_FILE: path.join(work, 'clusters.json') }),
      service('nvca-status', consumer('nvca-status')),
      service('agent', {
        CLUSTER_ID: clusterId,
        CLUSTER_DRIVER: 'simulated',
        SIM_START_DELAY_MS: '100',
        SIM_UPDATE_DELAY_MS: '100',
      }),
    ]);
    const base = (u: string) => u.replace(/\/graphql$/, '');
    // nvcf and nvct call ICMS: they start once its address is known
    const [nvcf, nvct] = await Promise.all([
      service('nvcf', { ...consumer('nvcf'), ICMS_URL: base(icms.urls[0]) }),
      service('nvct', { ...consumer('nvct'), ICMS_URL: base(icms.urls[0]) }),
    ]);
    const gateway = await service('gateway', {
      NVCF_URL: base(nvcf.urls[0]),
      ICMS_URL: base(icms.urls[0]),
      NVCA_STATUS_URL: base(status.urls[0]),
      NVCT_URL: base(nvct.urls[0]),
      AUTH_MODE: 'dev',
      AUTH_TOKENS: 'dev-token-a=nca-a',
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
    });
    Object.assign(urls, {
      icms: base(icms.urls[0]),
      'nvca-status': base(status.urls[0]),
      nvct: base(nvct.urls[0]),
      nvcf: base(nvcf.urls[0]),
      agent: agent.urls[0],
      gateway: base(gateway.urls[0]),
    });

    for (const s of SERVICES) {
      expect([s, (await fetch(`${urls[s]}/health`)).status]).toEqual([s, 200]);
      await waitUntil(async () => (await fetch(`${urls[s]}/ready`)).status === 200, {
        timeoutMs: 30_000,
        what: `${s} /ready`,
      });
      // the gateway's metrics listener is its own (it names tenants, so it is not on the public port)
      const metrics = await fetch(s === 'gateway' ? gateway.urls[1] : `${urls[s]}/metrics`);
      expect([s, metrics.status, metrics.headers.get('content-type')]).toEqual([
        s,
        200,
        expect.stringContaining('text/plain'),
      ]);
      expect(await metrics.text()).toMatch(/^# (HELP|TYPE) /m);
    }
  }, 120_000);

  it('serves clusters through the built gateway, and a deployment through every service', async () => {
    const res = await fetch(`${urls.gateway}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer dev-token-a' },
      body: JSON.stringify({ query: '{ clusters { id name gpus { name instanceTypes } } }' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        clusters: [
          { id: clusterId, name: `image-${tag}`, gpus: [{ name: 'L40S', instanceTypes: ['gl40s_1.br25_2xlarge'] }] },
        ],
      },
    });
    // nvcf → work queue → agent → status stream → nvcf, icms and nvca-status: the whole path, from dist/
    const d = await deployedHelm(httpClient(`${urls.gateway}/graphql`, 'dev-token-a'), {
      minInstances: 1,
      maxInstances: 1,
    });
    expect(d.instanceIds).toHaveLength(1);
  }, 60_000);

  it('serves the IDE and the console from the pages built into the image (AUTH_MODE=dev: both on)', async () => {
    const ide = await fetch(`${urls.gateway}/graphql`, { headers: { accept: 'text/html' } });
    expect([ide.status, ide.headers.get('content-security-policy')]).toEqual([
      200,
      expect.stringContaining("default-src 'none'"),
    ]);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await ide.text())?.[1];
    expect((await fetch(`${urls.gateway}${script}`)).status).toBe(200);
    expect((await fetch(`${urls.gateway}/console/`, { headers: { accept: 'text/html' } })).status).toBe(200);
    // Vite, React and GraphiQL are in the build, not in the image's node_modules
    for (const dev of ['vite', 'react', 'graphiql', 'monaco-editor'])
      expect([dev, fs.existsSync(path.join(stage, 'node_modules', dev))]).toEqual([dev, false]);
  });

  it('drains and exits 0 on SIGTERM, having written nothing into the image', async () => {
    const running = procs.filter((p) => (SERVICES as readonly string[]).includes(p.name));
    expect(running.map((p) => p.name).sort()).toEqual([...SERVICES].sort());
    for (const p of running) p.child.kill('SIGTERM');
    for (const p of running) expect([p.name, await p.exited]).toEqual([p.name, 0]);
    expect(listing(stage)).toEqual(before);
    if (!homeExisted) expect(fs.existsSync('/nonexistent')).toBe(false); // nor into its HOME
  }, 60_000);
});
