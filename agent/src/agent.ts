import { setMaxListeners } from 'node:events';
import { build, type Phase } from '@nvcf/lifecycle';
import { PoisonMessage, type Bus, type Consumer } from '@nvcf/bus';
import {
  Streams,
  durableName,
  subjects,
  type CreateInstanceMessage,
  type TaskWorkMessage,
  type TerminateInstanceMessage,
  type UpdateInstancesMessage,
} from '@nvcf/contracts';
import { createLogger } from '@nvcf/logging';
import type { ClusterDriver } from './driver.js';
import { defaultBackoff, type BackoffOptions } from './backoff.js';
import { Applier } from './apply.js';
import { InstanceWork } from './work.js';
import { OperatorReporter } from './operator-report.js';
import { RunningAgent } from './running.js';
import { TaskWork } from './tasks.js';

export interface AgentOptions {
  bus: Bus;
  driver: ClusterDriver;
  backoff?: BackoffOptions;
  /** messages worked on at once */
  concurrency?: number;
  /** redelivery after a silent agent (killed mid-work); long work is kept alive meanwhile */
  ackWaitMs?: number;
  /**
   * How often the agent re-checks which operator types its cluster can run (their CRDs served)
   * and reports a change to ICMS (drivers with `operatorSupport` only). Default 60 s; it also
   * checks at start and at once when an apply meets a missing CRD. 0: only the latter.
   */
  operatorCheckMs?: number;
  log?: (msg: string) => void;
}

export interface Agent extends AsyncDisposable {
  clusterId: string;
  /** ready while consuming; draining, then stopped, once told to stop */
  readonly phase: Phase;
  /** stops consuming and abandons work in flight (its messages are redelivered) */
  stop(): Promise<void>;
  /** stops consuming, lets work in flight finish for up to `graceMs`, then abandons the rest */
  drain(graceMs: number): Promise<void>;
}

/** Task work messages the agent holds at once: each task it runs holds its run until it ends. */
const TASK_RUNS_HELD = 1024;

/** A work handler for this cluster: a payload that is not an object is poison, one for another cluster is skipped. */
function forCluster<T extends { clusterId: string }>(
  clusterId: string,
  log: (msg: string) => void,
  fn: (m: T, deliveryCount: number) => Promise<unknown>,
) {
  return async ({ data, deliveryCount }: { data: T; deliveryCount: number }) => {
    if (!data || typeof data !== 'object') throw new PoisonMessage('payload is not an object');
    if (data.clusterId !== clusterId) {
      log(`ignoring a message for cluster ${data.clusterId}`);
      return;
    }
    await fn(data, deliveryCount);
  };
}

/** The NVCA agent: consumes its cluster's work, applies it in place, reports every transition. */
export async function startAgent(opts: AgentOptions): Promise<Agent> {
  const { bus, driver } = opts;
  const clusterId = driver.clusterId;
  const backoff = opts.backoff ?? defaultBackoff;
  const logger = createLogger(`agent ${clusterId}`);
  const log = opts.log ?? ((m: string) => logger.info(m));
  const abort = new AbortController();
  // one signal is shared by every apply in flight (hundreds on a big rollout), each listening
  // for the stop while it waits: not the leak Node's default warning at 10 listeners suspects
  setMaxListeners(0, abort.signal);
  const { signal } = abort;
  const operators = new OperatorReporter({ bus, driver, signal, log });
  const applier = new Applier({ driver, backoff, signal, log, onMissingCrds: () => operators.report(false) });
  const work = new InstanceWork({ bus, driver, backoff, signal, log, apply: (d) => applier.untilReady(d) });

  // The work durables keep their stream's replicas. One would do, and would spare a fleet an R3 Raft
  // group per cluster and stream: a lost durable is created again by its loop and reads what is still
  // pending in the work queue. But NATS refuses a work-queue consumer whose replicas differ from its
  // stream's (API error 10134, nats-server 2.15.2), so on R3 streams the agent would not start.
  const common = {
    ackWaitMs: opts.ackWaitMs ?? 30_000,
    maxDeliver: 50,
    maxAckPending: opts.concurrency ?? 64,
    backoffMs: [1000, 5000, 15000],
  };
  const workOf = (stream: { name: string }, filterSubject: string) => ({
    ...common,
    stream: stream.name,
    durable: durableName(stream.name, clusterId),
    filterSubject,
  });
  return build(async (stack) => {
    stack.defer(() => abort.abort(new Error('agent stopping')));
    const consumers: Consumer[] = [];
    // each consumer is stopped again if a later one cannot start: no half-started agent keeps work
    const adopt = (c: Consumer) => {
      consumers.push(c);
      stack.defer(() => c.stop());
    };
    adopt(
      await bus.consume<CreateInstanceMessage>(
        workOf(Streams.create, subjects.create(clusterId)),
        forCluster(clusterId, log, (m: CreateInstanceMessage) => work.create(m)),
      ),
    );
    adopt(
      await bus.consume<UpdateInstancesMessage>(
        workOf(Streams.update, subjects.update(clusterId)),
        forCluster(clusterId, log, (m: UpdateInstancesMessage) => work.update(m)),
      ),
    );
    adopt(
      await bus.consume<TerminateInstanceMessage>(
        workOf(Streams.terminate, subjects.terminate(clusterId)),
        forCluster(clusterId, log, (m: TerminateInstanceMessage) => work.terminate(m)),
      ),
    );
    if (driver.runTask) {
      const tasks = new TaskWork({
        bus,
        runTask: driver.runTask.bind(driver),
        removeTask: driver.removeTask?.bind(driver),
        runsTask: driver.runsTask?.bind(driver),
        signal,
        log,
      });
      adopt(
        await bus.consume<TaskWorkMessage>(
          // a run is held until its task ends: room for the runs of a busy cluster and, beside
          // them, for the stops that end them
          { ...workOf(Streams.taskWork, subjects.taskWork(clusterId)), maxAckPending: TASK_RUNS_HELD },
          forCluster(clusterId, log, (m: TaskWorkMessage, deliveryCount) => tasks.handle(m, deliveryCount)),
        ),
      );
    }
    // 0: no checks of its own, only the report an apply meeting a missing CRD triggers
    if (opts.operatorCheckMs !== 0) await operators.start(opts.operatorCheckMs ?? 60_000);
    return new RunningAgent(clusterId, consumers, abort);
  });
}
