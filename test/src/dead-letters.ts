import type { Bus, DeadLetter } from '@nvcf/bus';
import { durableName, Streams } from '@nvcf/contracts';
import { statusConsumers } from '@nvcf/local';

/** The status stream's durables of a system started with this deployment suffix (its three readers). */
export const statusDurables = (suffix: string) =>
  Object.values(statusConsumers(suffix)).map((c) => durableName(Streams.status.name, c));

/** The dead letters these durables left: on a shared NATS, other systems' readers leave their own. */
export async function deadLettersOf(system: { backends: { bus: Bus } }, durables: string[]): Promise<DeadLetter[]> {
  const all = await system.backends.bus.deadLetters.list({ limit: 10_000 });
  return all.filter((d) => durables.includes(d.durable));
}
