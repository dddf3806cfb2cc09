import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { allStreams } from '@nvcf/contracts';

/**
 * Deletes every durable whose name carries `tag` (a test system's random suffix, a benchmark's
 * cluster prefix) on `streams`: test systems and benchmarks create their own, and a developer's
 * NATS would otherwise collect hundreds of them. `natsUrl` may list several servers.
 */
export async function deleteDurables(
  natsUrl: string,
  tag: string,
  streams: readonly { name: string }[] = allStreams,
): Promise<void> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'test-durable-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    for (const stream of streams)
      for await (const ci of jsm.consumers.list(stream.name))
        if (ci.name.includes(tag)) await jsm.consumers.delete(stream.name, ci.name);
  } finally {
    await nc.close();
  }
}
