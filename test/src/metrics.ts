import { waitUntil } from '@nvcf/testing';

/** A gauge's value from a Prometheus text page (0 when absent). */
export async function gauge(baseUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    if (want.every((w) => line.includes(w))) total += Number(line.split(' ').at(-1));
  }
  return total;
}

/** Waits until the gateway (or a status service) holds at least `n` subscriptions of the tenant: events published after this reach them. */
export const subscriptionsOpen = (statusUrl: string, tenant: string, n = 1) =>
  waitUntil(async () => (await gauge(statusUrl, 'nvcf_status_subscriptions_open', { tenant })) >= n, { what: `${n} open subscription(s) of ${tenant}` });
