import type { Bus } from '@nvcf/bus';
import type { StatusEvent } from '@nvcf/contracts';
import type { HttpClient } from '../src/client.js';
import { readSpec } from '../src/rollout.js';
import { sleep } from './random.js';
import type { SubscriberView } from './subscribers.js';
import { TERMINAL } from './workload.js';

type Stored = StatusEvent & { seq: number };

export interface CheckResult {
  events_in_stream: number;
  events_checked: number;
  violations: string[];
}

/** Polls `check` (which lists what is still wrong) until it lists nothing or `ms` pass; the last list is the verdict. */
async function settle(ms: number, check: () => Promise<string[]>): Promise<string[]> {
  const until = Date.now() + ms;
  for (;;) {
    let wrong: string[];
    try {
      wrong = await check();
    } catch (err) {
      wrong = [`could not check: ${(err as Error).message}`];
    }
    if (!wrong.length || Date.now() > until) return wrong;
    await sleep(1000);
  }
}

/** the newest event of each instance by the agent's clock: what every store must hold in the end */
function newestOf(events: Stored[]) {
  const newest = new Map<string, Stored>();
  for (const e of events) {
    const n = newest.get(e.instanceId);
    if (!n || e.clock > n.clock) newest.set(e.instanceId, e);
  }
  return newest;
}

/**
 * The invariants of a chaos run, read independently of the services' own view: the status stream
 * (the ground truth), the API (each store through the service that owns it), the subscribers' record
 * and the dead-letter stream.
 */
export async function check(o: {
  client: () => HttpClient;
  specIds: string[];
  truth: Stored[];
  subscribers: SubscriberView[];
  bus: Bus;
  /** names that mark this deployment's durables (its suffix, its clusters) */
  durableTags: string[];
}): Promise<CheckResult> {
  const violations: string[] = [];

  // every revision ended, and every store agrees with the newest event of each instance
  violations.push(
    ...(await settle(180_000, async () => {
      const wrong: string[] = [];
      const newest = newestOf(o.truth);
      for (const id of o.specIds) {
        const spec = await readSpec(o.client(), id);
        const latest = spec?.latestRevision;
        if (!spec || !latest) {
          wrong.push(`${id}: no specification or revision`);
          continue;
        }
        if (!TERMINAL.includes(latest.status)) wrong.push(`${id}: revision ${latest.id} still ${latest.status}`);
        for (const i of spec.instances) {
          const e = newest.get(i.id);
          if (!e) wrong.push(`${id}/${i.id}: no event in the stream`);
          else if (e.state !== i.state || e.revisionId !== i.revisionId)
            wrong.push(
              `${id}/${i.id}: stores say ${i.state} on ${i.revisionId}, its newest event ${e.state} on ${e.revisionId}`,
            );
          if (latest.status === 'APPLIED' && (i.state !== 'ACTIVE' || i.revisionId !== latest.id))
            wrong.push(
              `${id}/${i.id}: revision ${latest.id} APPLIED but the instance is ${i.state} on ${i.revisionId}`,
            );
        }
        if (latest.status === 'APPLIED' && spec.lastAppliedRevision?.id !== latest.id)
          wrong.push(`${id}: latest revision APPLIED but lastAppliedRevision is ${spec.lastAppliedRevision?.id}`);
      }
      return wrong;
    })),
  );

  // every subscriber saw every event of its scope from its first one on: once each, in stream order
  let checked = 0;
  const scopeSeqs = new Map(
    o.specIds.map((id) => [id, o.truth.filter((e) => e.gpuSpecificationId === id).map((e) => e.seq)]),
  );
  violations.push(
    ...(await settle(120_000, async () =>
      o.subscribers.flatMap((s) => {
        const all = scopeSeqs.get(s.specId)!;
        if (!s.seqs.length) return all.length ? [`subscriber ${s.id} (${s.transport}) received nothing`] : [];
        return s.seqs.at(-1) === all.at(-1) ? [] : [`subscriber ${s.id} (${s.transport}) has not caught up`];
      }),
    )),
  );
  for (const s of o.subscribers) {
    if (!s.seqs.length) continue;
    const expected = scopeSeqs.get(s.specId)!.filter((q) => q >= s.seqs[0]);
    checked += s.seqs.length;
    const got = new Set(s.seqs);
    const lost = expected.filter((q) => !got.has(q));
    const missing = lost.length;
    const duplicates = s.seqs.length - got.size;
    const outOfOrder = s.seqs.filter((q, i) => i > 0 && q <= s.seqs[i - 1]).length;
    if (missing || duplicates || outOfOrder || s.lagged)
      violations.push(
        `subscriber ${s.id} (${s.transport}, ${s.specId}): ${missing} missing, ${duplicates} duplicates, ${outOfOrder} out of order, ${s.lagged} conflated${rewindOf(s)}${lostAt(s, lost)}`,
      );
  }

  // nothing was given up on
  const letters = (await o.bus.deadLetters.list({ limit: 10_000 })).filter((d) =>
    o.durableTags.some((t) => d.durable.includes(t)),
  );
  for (const d of letters) violations.push(`dead letter from ${d.durable}: ${d.error}`);

  return { events_in_stream: o.truth.length, events_checked: checked + o.truth.length, violations };
}

/** where a subscriber's sequence first went backwards, and on which connections: what to look at first */
function rewindOf(s: SubscriberView): string {
  const i = s.seqs.findIndex((q, k) => k > 0 && q <= s.seqs[k - 1]);
  if (i < 0) return '';
  const at = (k: number) => {
    const c = s.connects[s.via[k]];
    return `connection ${s.via[k]} (${c.gateway}, after ${c.after ?? 'none'}, ${c.at})`;
  };
  return `; first rewind: ${s.seqs[i - 1]} on ${at(i - 1)}, then ${s.seqs[i]} on ${at(i)}; around it: ${s.seqs
    .slice(Math.max(0, i - 6), i + 6)
    .join(' ')}`;
}

/** which events a subscriber never received, the connections either side of the first, and the errors it was sent */
function lostAt(s: SubscriberView, lost: number[]): string {
  if (!lost.length) return '';
  const after = s.seqs.findIndex((q) => q > lost[0]);
  const side = (k: number) => {
    if (k < 0 || k >= s.seqs.length) return 'none';
    const c = s.connects[s.via[k]];
    return `${s.seqs[k]} on connection ${s.via[k]} (${c.gateway}, after ${c.after ?? 'none'}, ${c.at})`;
  };
  const errors = [...new Set(s.errors)].slice(0, 3);
  return `; never received: ${lost.slice(0, 10).join(' ')}; around the first: ${side(after - 1)}, then ${side(after)}${
    errors.length ? `; errors it was sent: ${errors.join(' | ')}` : ''
  }`;
}
