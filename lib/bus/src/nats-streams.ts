import { RetentionPolicy, StorageType, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from './nats-consume.js';
import type { StreamSpec } from './types.js';

const DEFAULT_DUPLICATE_WINDOW_MS = 120_000;

/**
 * The JetStream configuration a spec becomes: what `ensureStreams` creates, and what a
 * preflight of a release expects to find. The server fills in the remaining fields.
 */
export function natsStreamConfig(spec: StreamSpec, replicas = 1): StreamConfig {
  return {
    name: spec.name,
    subjects: spec.subjects,
    retention: spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: replicas,
    max_age: nanos(spec.maxAgeMs ?? 0),
    max_msgs: spec.maxMsgs ?? -1,
    duplicate_window: nanos(spec.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS),
  } as StreamConfig;
}

export interface StreamConfigDifference {
  field: 'subjects' | 'retention' | 'storage' | 'num_replicas' | 'max_age' | 'max_msgs' | 'duplicate_window';
  have: unknown;
  want: unknown;
}

/** Only the fields we set: others (placement, compression...) may be tuned by operators. */
export function streamConfigDifferences(have: StreamConfig, want: StreamConfig): StreamConfigDifference[] {
  const out: StreamConfigDifference[] = [];
  const subjects = (c: StreamConfig) => [...(c.subjects ?? [])].sort();
  if (subjects(have).join() !== subjects(want).join())
    out.push({ field: 'subjects', have: subjects(have), want: subjects(want) });
  for (const field of ['retention', 'storage', 'num_replicas', 'max_age', 'max_msgs', 'duplicate_window'] as const) {
    if (have[field] !== want[field]) out.push({ field, have: have[field], want: want[field] });
  }
  return out;
}
