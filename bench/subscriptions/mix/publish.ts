// The mix's event source: the sweep's synthetic publisher, its events spread over the tenants.
// Every tenant's events go to its own subjects (subjects.status(tenant, instance)), numbered in
// the tenant's own sequence, so each subscriber is judged on the events of its tenant alone.

/** Event `g` of a step in publish order: the tenants take turns, each its own sequence. */
export const eventOf = (g: number, tenants: number) => ({ tenant: g % tenants, n: Math.floor(g / tenants) });

/** publishes in flight at most: the bus acknowledges each, and more would only queue in the client */
const WINDOW = 512;

/**
 * Publishes `perTenant` events for each of `tenants` at `rate` per tenant and second, without
 * waiting for each acknowledgement before the next is due (one tenant's rate times fifty is more
 * than one publish round trip at a time keeps up with). `acked(tenant, n)` is called once the bus
 * took an event; `issued[tenant]` counts the events sent so far, what a resume is measured against.
 */
export async function publishSpread(o: {
  tenants: number;
  perTenant: number;
  rate: number;
  publish: (tenant: number, n: number) => Promise<unknown>;
  acked: (tenant: number, n: number) => void;
  issued: Uint32Array;
  onError: (err: unknown) => void;
}): Promise<{ events: number; t0: number }> {
  const total = o.tenants * o.perTenant,
    perMs = (o.rate * o.tenants) / 1000;
  const t0 = Date.now();
  let events = 0,
    inFlight = 0;
  const pending = new Set<Promise<void>>();
  for (let g = 0; g < total; g++) {
    const due = t0 + g / perMs;
    // timers are coarse: sleep only when a few milliseconds ahead, and catch up in one go
    if (due - Date.now() > 4) await new Promise((r) => setTimeout(r, due - Date.now()));
    while (inFlight >= WINDOW) await Promise.race(pending);
    const { tenant, n } = eventOf(g, o.tenants);
    o.issued[tenant] = n + 1;
    inFlight++;
    const p: Promise<void> = o
      .publish(tenant, n)
      .then(
        () => {
          events++;
          o.acked(tenant, n);
        },
        (err: unknown) => o.onError(err),
      )
      .finally(() => {
        inFlight--;
        pending.delete(p);
      });
    pending.add(p);
  }
  await Promise.all(pending);
  return { events, t0 };
}
