import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { natsStreamConfig } from '@nvcf/bus';
import { allStreams, Streams } from '@nvcf/contracts';
import { describeReal, runOpsCommand } from '@nvcf/test';
import { startPrivateNats, type PrivateNats } from '../../test/services/nats-private.js';
import { natsChecks } from '../src/preflight-nats.js';
import { ensureReleaseStreams } from '../src/index.js';

const runStreamsCli = (args: string[], env: Record<string, string>) => runOpsCommand('streams', args, env);

const streamChecks = async (natsUrl: string) =>
  (await natsChecks({ natsUrl, streams: allStreams, timeoutMs: 5000 }))
    .filter((c) => c.check.startsWith('stream '))
    .map((c) => `${c.check} ${c.status}`);

describeReal('streams ensure (the chart hook): every stream of this release, created or updated', () => {
  let nats: PrivateNats;
  beforeAll(async () => {
    nats = await startPrivateNats();
  }, 120_000);
  afterAll(async () => {
    await nats?.[Symbol.asyncDispose]();
  });

  it("creates the missing streams and brings one with other limits to this release's configuration", async () => {
    const nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ ...natsStreamConfig(Streams.status), max_msgs: 10 });
    await nc.close();
    expect(await streamChecks(nats.url)).toContain(`stream ${Streams.status.name} FAIL`);
    expect(await ensureReleaseStreams({ natsUrl: nats.url, replicas: 1 })).toEqual(allStreams.map((s) => s.name));
    expect(await streamChecks(nats.url)).toEqual(allStreams.map((s) => `stream ${s.name} OK`));
  });

  it('as a command: exit 0 naming the streams, 2 on a usage error, 1 when NATS is unreachable', async () => {
    const ok = await runStreamsCli(['ensure'], { NATS_URL: nats.url, NATS_STREAM_REPLICAS: '1' });
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.out).toContain(`streams ensured with 1 replica(s): ${allStreams.map((s) => s.name).join(', ')}`);
    expect(await runStreamsCli(['ensure', '--stream-replicas', '9'], { NATS_URL: nats.url })).toMatchObject({
      code: 2,
    });
    const down = await runStreamsCli(['ensure'], { NATS_URL: 'nats://127.0.0.1:1' });
    expect(down.code).toBe(1);
    expect(down.out).toMatch(/streams: BusConnectError: cannot connect to NATS/);
  });
});
