import { setTimeout as sleep } from 'node:timers/promises';
import type { Bus } from '@nvcf/bus';
import type { CreateInstanceMessage, TerminateInstanceMessage, UpdateInstancesMessage } from '@nvcf/contracts';
import { RemovalStuck, type ClusterDriver, type DesiredInstance } from './driver.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { keyedLock } from './keyed-lock.js';
import { report, type Last } from './reporter.js';
import type { Outcome } from './apply.js';

export interface InstanceWorkOptions {
  bus: Bus;
  driver: ClusterDriver;
  backoff: BackoffOptions;
  /** applies until ready (Applier.untilReady) */
  apply: (d: DesiredInstance) => Promise<Outcome>;
  /** the agent's stop: ends the wait for a stuck removal */
  signal: AbortSignal;
  log: (msg: string) => void;
}

/**
 * The agent's work on one instance at a time (create, update, terminate), each reporting every
 * transition. The cluster's observation decides what a message still means: at-least-once
 * delivery brings the same message twice, and a newer revision may have overtaken it.
 */
export class InstanceWork {
  /** one task per instance at a time: a create, then its update */
  private readonly lock = keyedLock();

  constructor(private readonly o: InstanceWorkOptions) {}

  create(m: CreateInstanceMessage): Promise<void> {
    const { bus, driver } = this.o;
    return this.lock(m.instanceId, async () => {
      const obs = await driver.observe(m.instanceId);
      if (obs && (obs.readyRevisionId === m.revisionId || obs.desired.revisionCreatedAt > m.revisionCreatedAt)) return; // redelivered or overtaken
      if (obs?.reportedState === 'FAILED' || obs?.reportedState === 'TERMINATED') return;
      const d: DesiredInstance = { ...m, instanceId: m.instanceId };
      let last: Last = obs;
      if (last?.reportedState !== 'STARTING')
        last = await report(bus, driver, d, last, { state: 'STARTING', revisionId: null });
      const out = await this.o.apply(d);
      if (out.ok) await report(bus, driver, d, last, { state: 'ACTIVE', revisionId: m.revisionId });
      else
        await report(bus, driver, d, last, { state: 'FAILED', revisionId: null, message: out.reason, permanent: true });
    });
  }

  /** Every target of an update, each under its own instance's lock. */
  update(m: UpdateInstancesMessage): Promise<unknown> {
    return Promise.all(m.targets.map((t) => this.updateOne(m, t)));
  }

  private updateOne(m: UpdateInstancesMessage, instanceId: string): Promise<void> {
    const { bus, driver, log } = this.o;
    return this.lock(instanceId, async () => {
      const obs = await driver.observe(instanceId);
      // at-least-once delivery: targets this agent does not manage are not ours to touch
      if (!obs || obs.desired.clusterId !== driver.clusterId) {
        log(`ignoring update of ${instanceId}: not managed by this agent`);
        return;
      }
      if (obs.readyRevisionId === m.revisionId) return; // already applied: a redelivery is a no-op
      if (obs.desired.revisionCreatedAt > m.revisionCreatedAt) return; // a newer revision already won
      if (obs.reportedState === 'FAILED' || obs.reportedState === 'TERMINATED') return;
      const d: DesiredInstance = {
        ...obs.desired,
        revisionId: m.revisionId,
        revisionCreatedAt: m.revisionCreatedAt,
        workload: m.workload,
      };
      const starting = obs.readyRevisionId === null;
      let last: Last = obs;
      // Already UPDATING (an agent that died mid-update): the UPDATING it reported named the revision
      // its apply wrote into `desired`; when that is another revision than this message's, readers
      // would show a stale target, so the move to this one is reported again (UPDATING → UPDATING).
      // An apply that had not started yet left no trace of its target: then nothing is re-reported,
      // as a duplicate UPDATING would be worse than a target that is usually this one anyway.
      const retargeted =
        last.reportedState === 'UPDATING' &&
        obs.desired.revisionId !== m.revisionId &&
        obs.desired.revisionId !== obs.readyRevisionId;
      if (!starting && (last.reportedState !== 'UPDATING' || retargeted)) {
        last = await report(bus, driver, d, last, {
          state: 'UPDATING',
          revisionId: obs.readyRevisionId,
          targetRevisionId: m.revisionId,
        });
      }
      const out = await this.o.apply(d);
      if (out.ok) await report(bus, driver, d, last, { state: 'ACTIVE', revisionId: m.revisionId });
      else if (starting)
        await report(bus, driver, d, last, {
          state: 'FAILED',
          revisionId: null,
          message: out.reason,
          permanent: true,
          targetRevisionId: m.revisionId,
        });
      // the instance keeps serving its last applied revision (rule 9)
      else
        await report(bus, driver, obs.desired, last, {
          state: 'ACTIVE',
          revisionId: obs.readyRevisionId,
          message: `update to revision ${m.revisionId} failed: ${out.reason}`,
          failedRevisionId: m.revisionId,
          permanent: true,
        });
    });
  }

  terminate(m: TerminateInstanceMessage): Promise<void> {
    const { bus, driver, backoff, signal, log } = this.o;
    return this.lock(m.instanceId, async () => {
      const obs = await driver.observe(m.instanceId);
      if (!obs || obs.reportedState === 'TERMINATED') return;
      let last: Last = obs;
      // TERMINATED only once the cluster is clean: objects held by finalizers past the driver's
      // timeout are reported (FAILED, naming them), and the agent keeps waiting for them
      for (let attempt = 1, told = false; ; attempt++) {
        try {
          await driver.remove(m.instanceId, m.graceful);
          break;
        } catch (err) {
          if (!(err instanceof RemovalStuck) || signal.aborted) throw err;
          if (!told)
            last = await report(bus, driver, obs.desired, last, {
              state: 'FAILED',
              revisionId: obs.readyRevisionId,
              message: `undeploy stuck: ${err.message}`,
            });
          told = true;
          log(`terminate ${m.instanceId}: ${err.message}`);
          await sleep(backoffDelay(attempt, backoff), undefined, { signal });
        }
      }
      await report(bus, driver, obs.desired, last, { state: 'TERMINATED', revisionId: obs.readyRevisionId });
    });
  }
}
