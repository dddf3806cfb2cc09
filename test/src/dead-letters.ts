import type { Bus, DeadLetter } from '@nvcf/bus';
import { durableName, Streams } from '@nvcf/contracts';
import { statusConsumers } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import { gauge } from './metrics.js';

/** The status stream's durables of a system started with this deployment suffix (its three readers). */
export const statusDurables = (suffix: string) =>
  Object.values(statusConsumers(suffix)).map((c) => durableName(Streams.status.name, c));

/** The dead letters these durables left: on a shared NATS, other systems' readers leave their own. */
export async function deadLettersOf(system: { backends: { bus: Bus } }, durables: string[]): Promise<DeadLetter[]> {
  const all = await system.backends.bus.deadLetters.list({ limit: 10_000 });
  return all.filter((d) => durables.includes(d.durable));
}

/**
 * Waits until each durable reports holding its messages through an outage (`waiting`) or no longer
 * (`nvcf_bus_consumer_waiting` on the system's metrics page). A reader reopens at its next probe,
 * up to 30 s after the dependency is back.
 */
export async function readersWaiting(metricsUrl: string, durables: string[], waiting: boolean): Promise<void> {
  for (const durable of durables)
    await waitUntil(
      async () => (await gauge(metricsUrl, 'nvcf_bus_consumer_waiting', { durable })) === (waiting ? 1 : 0),
      { what: `${durable} ${waiting ? 'waiting on its dependency' : 'no longer waiting'}`, timeoutMs: 60_000 },
    );
}
