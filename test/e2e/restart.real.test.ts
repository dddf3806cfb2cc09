import { randomBytes } from 'node:crypto';
import { startSystem, demoClusters } from '@nvcf/local';
import { realBackends } from '@nvcf/local/real';
import { FunctionsDocument, GpuSpecificationDocument } from '@nvcf/client';
import { describeReal, realEnv, httpClient, ok, deployedHelm } from '@nvcf/test';
import { fast } from './suites/system.js';

describeReal('NATS JetStream and Cassandra', () => {
  it('data survives a restart of the whole process', async () => {
    const suffix = `_${randomBytes(4).toString('hex')}`;
    const start = async (drop: boolean) =>
      startSystem({
        ...fast,
        clusters: demoClusters(suffix.replace('_', '-')),
        // durables of its own (the second start resumes them), from new events on: the shared
        // stream's history belongs to other suites
        deploymentSuffix: suffix,
        statusConsumerStart: 'new',
        backends: await realBackends({ ...realEnv(), keyspaceSuffix: suffix, dropKeyspaces: drop }),
      });
    let d: Awaited<ReturnType<typeof deployedHelm>>;
    {
      // disposed however the block ends: a failed deployment must not leave the system listening
      await using first = await start(false);
      d = await deployedHelm(httpClient(first.url, 'dev-token-a'), { minInstances: 1, maxInstances: 1 });
    }

    await using second = await start(true);
    const a = httpClient(second.url, 'dev-token-a');
    expect(ok(await a(FunctionsDocument, {})).functions.map((f) => f.id)).toEqual([d.functionId]);
    const spec = ok(await a(GpuSpecificationDocument, { id: d.specId })).gpuSpecification!;
    expect(spec.lastAppliedRevision!.id).toBe(d.firstRevisionId);
    expect(spec.instances.map((i) => [i.id, i.state])).toEqual([[d.instanceIds[0], 'ACTIVE']]);
  }, 60_000);
});
