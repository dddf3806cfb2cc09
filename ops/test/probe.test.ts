import net from 'node:net';
import { startSystem, type System, type SystemOptions } from '@nvcf/local';
import { startGateway, type RunningGateway } from '@nvcf/gateway';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { Streams } from '@nvcf/contracts';
import { waitUntil } from '@nvcf/testing';
import { httpClient, ok, deployedHelm, submit, waitRevision, watchSubscriptions, runOpsCommand } from '@nvcf/test';
import { startProbe, type Probe } from '../src/index.js';

const fast: SystemOptions = {
  sim: { startDelayMs: 20, updateDelayMs: 20 },
  agentBackoff: { initialMs: 20, maxMs: 100, factor: 2 },
  revisionDeadlineMs: 4000,
  deadlineSweepMs: 100,
};

/** A TCP forwarder the test points at one replica, then another: a load balancer in front of two. */
async function tcpSwitch(targetUrl: string) {
  let target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    point: (url: string) => {
      target = new URL(url);
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const runProbeCli = (args: string[]) => runOpsCommand('probe', args);

describe('probe: against the embedded system', () => {
  let system: System;
  let probe: Probe | undefined;
  beforeEach(async () => {
    system = await startSystem(fast);
  });
  afterEach(async () => {
    await probe?.stop();
    probe = undefined;
    await system?.dispose();
  });

  it('a clean run through a rollout: every request answered, every transition once, no gap', async () => {
    const a = httpClient(system.url, 'dev-token-a');
    const d = await deployedHelm(a, { minInstances: 2, maxInstances: 2 });
    const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
    probe = startProbe({ url: system.url, token: 'dev-token-a', intervalMs: 20, functionId: d.functionId });
    await watch.opened(1);
    ok(await submit(a, d.specId, { replicas: 1, model: 'v2' }));
    await waitRevision(a, d.specId, 'APPLIED');
    await waitUntil(() => probe!.summary().events === 4 && probe!.summary().requests >= 20, {
      what: 'four transitions and twenty probes',
    });
    const s = await probe.stop();
    expect(s).toMatchObject({
      failed: 0,
      gaps: 0,
      duplicates: 0,
      subscriptionErrors: 0,
      reconnects: 0,
      events: 4,
      subscription: true,
    });
    expect(s.failures).toEqual([]);
    expect(s.latencyMs.p50).toBeGreaterThan(0);
    expect(s.latencyMs.p99!).toBeGreaterThanOrEqual(s.latencyMs.p50!);
  });

  /**
   * The replica behind the balancer goes away between two rollouts; the second rollout starts
   * while the probe cannot reach any replica, and the balancer then sends it to another
   * replica, which signs cursors with `cursorSecret`.
   */
  async function replaceReplica(cursorSecret: string) {
    const second: RunningGateway = await startGateway({
      subgraphs: system.subgraphs,
      verify: staticTokens(DEV_TOKENS),
      secret: system.secret,
      cursorSecret,
      bus: system.backends.bus,
    });
    const lb = await tcpSwitch(system.url);
    try {
      const a = httpClient(system.url, 'dev-token-a');
      const d = await deployedHelm(a, { minInstances: 4, maxInstances: 4 });
      const watch = await watchSubscriptions(system.gateway.metricsUrl, 'nca-a');
      probe = startProbe({
        url: lb.url,
        token: 'dev-token-a',
        intervalMs: 20,
        timeoutMs: 1000,
        functionId: d.functionId,
      });
      await watch.opened(1);
      ok(await submit(a, d.specId, { model: 'v2' }));
      await waitUntil(() => probe!.summary().events === 8, {
        what: 'the first rollout seen: UPDATING, ACTIVE per instance',
      });
      await system.gateway.dispose(); // the old replica goes; the balancer still sends to it
      await waitUntil(() => probe!.summary().failed >= 3, { what: 'probes failing while no replica answers' });
      // a rollout under way while the subscriber is away: only a resume can deliver its first transitions
      const { lastSeq } = await system.backends.bus.streamInfo(Streams.status.name);
      const b = httpClient(second.graphqlUrl, 'dev-token-a');
      ok(await submit(b, d.specId, { model: 'v3', nvcfSimulate: { delayMs: 200 } }));
      await waitUntil(async () => (await system.backends.bus.streamInfo(Streams.status.name)).lastSeq > lastSeq, {
        what: 'a transition during the outage',
      });
      const eventsBeforeResume = probe.summary().events;
      lb.point(second.graphqlUrl);
      await waitRevision(b, d.specId, 'APPLIED');
      await waitUntil(() => probe!.summary().reconnects >= 1, { what: 'the subscription re-established' });
      const sent = probe.summary().requests;
      await waitUntil(() => probe!.summary().requests >= sent + 10, { what: 'probes on the new replica' });
      return { eventsBeforeResume, summary: () => probe!.summary(), stop: () => probe!.stop() };
    } finally {
      await lb.close().catch(() => {});
      await second.dispose();
    }
  }

  it('a replica replaced: requests fail while none answers, the stream resumes with no gap and no duplicate', async () => {
    const run = await replaceReplica(system.secret);
    await waitUntil(() => run.summary().events === 16, { what: 'all sixteen transitions of the two rollouts' });
    const s = await run.stop();
    expect(s.failed).toBeGreaterThan(0);
    expect(s.failures.filter((f) => f.what === 'query').length).toBe(s.failed);
    expect(s.failures.filter((f) => f.what !== 'query' && f.what !== 'query retry')).toEqual([]);
    expect(s).toMatchObject({ gaps: 0, duplicates: 0, subscriptionErrors: 0, events: 16, reconnects: 1 });
    expect(run.eventsBeforeResume).toBe(8); // the second rollout reached the subscriber only by resuming
  });

  it('a replica that cannot read the cursors (another cursor secret): the lost resume is a gap and a subscription error', async () => {
    const run = await replaceReplica('not-the-shared-cursor-secret');
    const s = await run.stop();
    expect(s.subscriptionErrors).toBeGreaterThan(0);
    expect(s.gaps).toBeGreaterThan(0);
    expect(s.failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ what: 'subscription', code: 'CURSOR_INVALID' }),
        expect.objectContaining({ what: 'gap', code: 'CURSOR_INVALID' }),
      ]),
    );
  });

  it('the command line: a table and exit 0 on a clean run, JSON and exit 1 when requests fail', async () => {
    const clean = await runProbeCli([
      '--url',
      system.url,
      '--token',
      'dev-token-a',
      '--duration',
      '600ms',
      '--interval',
      '50ms',
    ]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^failed\s+0$/m);
    expect(clean.stdout).toMatch(/^result\s+PASS$/m);
    const refused = await runProbeCli(['--url', system.url, '--token', 'not-a-token', '--duration', '300ms', '--json']);
    expect(refused.code).toBe(1);
    const summary = JSON.parse(refused.stdout);
    expect(summary.failed).toBeGreaterThan(0);
    expect(summary.failures[0]).toMatchObject({ what: 'query', code: 'UNAUTHENTICATED' });
    expect(refused.stderr).toMatch(/FAIL query UNAUTHENTICATED/);
    const usage = await runProbeCli(['--token', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--url is required');
  });
});
