import { randomBytes } from 'node:crypto';
import { FunctionsDocument, GpuSpecificationDocument } from '@nvcf/client';
import { describeReal, startRealSystem, httpClient, ok, deployedHelm } from '@nvcf/test';
import { fast } from './suites/system.js';

describeReal('NATS JetStream and Cassandra', () => {
  it('data survives a restart of the whole process', async () => {
    // the second start resumes the first one's keyspaces and durables
    const suffix = `_${randomBytes(4).toString('hex')}`;
    let d: Awaited<ReturnType<typeof deployedHelm>>;
    {
      // disposed however the block ends: a failed deployment must not leave the system listening
      await using first = await startRealSystem(fast, { suffix, keep: true });
      d = await deployedHelm(httpClient(first.url, 'dev-token-a'), { minInstances: 1, maxInstances: 1 });
    }

    await using second = await startRealSystem(fast, { suffix });
    const a = httpClient(second.url, 'dev-token-a');
    expect(ok(await a(FunctionsDocument, {})).functions.map((f) => f.id)).toEqual([d.functionId]);
    const spec = ok(await a(GpuSpecificationDocument, { id: d.specId })).gpuSpecification!;
    expect(spec.lastAppliedRevision!.id).toBe(d.firstRevisionId);
    expect(spec.instances.map((i) => [i.id, i.state])).toEqual([[d.instanceIds[0], 'ACTIVE']]);
  }, 60_000);
});
