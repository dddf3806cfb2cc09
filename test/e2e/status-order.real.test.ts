import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Streams, durableName, subjects, type StatusEvent } from '@nvcf/contracts';
import { statusConsumers } from '@nvcf/local';
import { describeReal, realEnv, startRealSystem } from '@nvcf/test';

// The readers write an instance's state at the event's clock (no compare-and-set): whatever order the
// stream hands them events in, and however often, every store must end on the newest one.
describeReal('status readers on NATS and Cassandra: out of order and redelivered', () => {
  it('leave every store on the newest event of an instance', async () => {
    const suffix = `_${randomBytes(4).toString('hex')}`;
    await using system = await startRealSystem({}, { suffix });
    const { bus, icmsStore, statusStore, nvcfStore } = system.backends;
    const instanceId = `order-${suffix.slice(1)}`;
    const ref = {
      ncaId: 'nca-a',
      functionId: 'fn-order',
      versionId: 'v-order',
      gpuSpecificationId: `spec-${suffix.slice(1)}`,
      clusterId: system.clusters[0].id,
      instanceId,
    };
    const at = new Date().toISOString();
    // ICMS knows an instance from its launch record; a report never creates one
    await icmsStore.putInstances([
      {
        id: instanceId,
        ncaId: ref.ncaId,
        functionId: ref.functionId,
        versionId: ref.versionId,
        gpuSpecificationId: ref.gpuSpecificationId,
        clusterId: ref.clusterId,
        launchRevisionId: 'r1',
        state: 'REQUESTED',
        revisionId: null,
        clock: 0,
        singleTenant: false,
        createdAt: at,
        updatedAt: at,
      },
    ]);
    const t = Date.now() * 1000;
    const updating: StatusEvent = {
      ...ref,
      state: 'UPDATING',
      previousState: 'ACTIVE',
      revisionId: 'r1',
      targetRevisionId: 'r2',
      at,
      clock: t + 1,
    };
    const active: StatusEvent = {
      ...ref,
      state: 'ACTIVE',
      previousState: 'UPDATING',
      revisionId: 'r2',
      at,
      clock: t + 2,
    };
    // the newest first, then the older one, then both again as separate stream messages (a redelivery
    // of a message the reader had already applied looks the same to it)
    const subject = subjects.status(ref.ncaId, instanceId);
    for (const [e, copy] of [
      [active, 0],
      [updating, 0],
      [updating, 1],
      [active, 1],
    ] as const)
      await bus.publish(subject, e, { msgId: `${instanceId}:${e.clock}:${copy}` });

    // every reader has acknowledged all four once its durable has nothing pending or unacknowledged
    const nc = await connect({ servers: realEnv().natsUrl.split(',') });
    try {
      const jsm = await jetstreamManager(nc);
      const names = statusConsumers(suffix);
      const durables = [names.nvcf, names.icms, names.status].map((c) => durableName(Streams.status.name, c));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const infos = await Promise.all(durables.map((d) => jsm.consumers.info(Streams.status.name, d)));
        if (infos.every((i) => i.num_pending === 0 && i.num_ack_pending === 0 && i.delivered.stream_seq > 0)) break;
        if (Date.now() > deadline)
          throw new Error(`readers still busy: ${JSON.stringify(infos.map((i) => i.num_pending + i.num_ack_pending))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await nc.close();
    }

    expect((await statusStore.get([instanceId]))[0]).toMatchObject({ state: 'ACTIVE', revisionId: 'r2', clock: t + 2 });
    expect((await icmsStore.getInstances([instanceId]))[0]).toMatchObject({
      state: 'ACTIVE',
      revisionId: 'r2',
      clock: t + 2,
    });
    expect(await nvcfStore.instanceStates(ref.gpuSpecificationId)).toEqual([
      expect.objectContaining({ instanceId, state: 'ACTIVE', revisionId: 'r2', clock: t + 2 }),
    ]);
  });
});
