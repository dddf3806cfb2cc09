import { type Bus } from '@nvcf/bus';
import { Streams, subjects, type StatusEvent } from '@nvcf/contracts';

/**
 * A tenant's status events as stored in the stream, read straight from it: the ground truth a
 * subscriber's view is compared with (every one of them, once, in this order). From `fromSeq`
 * on, or only those published from now on.
 */
export async function statusLog(bus: Bus, tenant: string, fromSeq?: number) {
  const events: (StatusEvent & { seq: number })[] = [];
  let caughtUp!: () => void;
  const stored = new Promise<void>((resolve) => {
    caughtUp = resolve;
  });
  const tail = await bus.tail<StatusEvent>(
    {
      stream: Streams.status.name,
      filterSubject: subjects.statusOfTenant(tenant),
      fromSeq,
      onCaughtUp: () => caughtUp(),
    },
    (m) => {
      events.push({ ...m.data, seq: m.seq });
    },
  );
  return {
    events,
    /** resolves once every event stored when the read started has arrived */
    caughtUp: stored,
    /** the states each of `instanceIds` was published in, in stream order */
    transitions: (instanceIds: string[]) =>
      Object.fromEntries(instanceIds.map((id) => [id, events.filter((e) => e.instanceId === id).map((e) => e.state)])),
    stop: () => tail.stop(),
    [Symbol.asyncDispose]: () => tail.stop(),
  };
}
