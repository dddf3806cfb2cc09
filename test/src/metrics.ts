import { waitUntil } from '@nvcf/testing';

/** A gauge's value from a Prometheus text page (0 when absent). */
export async function gauge(baseUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    // exact name: `x_open` must not also count `x_opened_total`
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (want.every((w) => line.includes(w))) total += Number(line.split(' ').at(-1));
  }
  return total;
}

/**
 * Call before subscribing; `opened(n)` then waits until n more subscriptions of the tenant
 * are registered, so events published afterwards reach them. Counts openings (a counter), so
 * subscriptions of earlier tests closing meanwhile cannot confuse it. `prefix` names the stream's
 * metrics: `nvcf_status` (instanceStatusChanged), `nvcf_task_status` (taskStatusChanged).
 */
export async function watchSubscriptions(url: string, tenant: string, prefix = 'nvcf_status') {
  const metric = `${prefix}_subscriptions_opened_total`;
  const base = await gauge(url, metric, { tenant });
  return {
    opened: (n = 1) =>
      waitUntil(async () => (await gauge(url, metric, { tenant })) >= base + n, {
        what: `${n} subscription(s) of ${tenant} registered`,
      }),
  };
}
