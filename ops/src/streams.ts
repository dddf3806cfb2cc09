import { createNatsBus, type StreamSpec } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';

export interface EnsureStreamsOptions {
  natsUrl: string;
  /** replicas of every stream (NATS_STREAM_REPLICAS): 3 on a JetStream cluster */
  replicas: number;
  /** this release's streams (default: allStreams) */
  streams?: StreamSpec[];
}

/**
 * Before an install or upgrade (the chart's hook): every stream of this release exists with the
 * configuration its code sets. Missing streams are created, others updated in place; a change
 * JetStream cannot make in place (retention, storage) fails with the stream's name.
 */
export async function ensureReleaseStreams(o: EnsureStreamsOptions): Promise<string[]> {
  const streams = o.streams ?? allStreams;
  const bus = await createNatsBus({ servers: o.natsUrl, name: 'nvcf-streams', streamReplicas: o.replicas });
  try {
    await bus.ensureStreams(streams);
  } finally {
    await bus.dispose();
  }
  return streams.map((s) => s.name);
}
