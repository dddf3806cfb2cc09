import type { Bus } from '@nvcf/bus';
import { RecentSet } from '@nvcf/collections';
import {
  msgIds,
  subjects,
  type RunTaskMessage,
  type StopTaskMessage,
  type TaskReport,
  type TaskReportStatus,
  type TaskWorkMessage,
} from '@nvcf/contracts';
import type { ClusterDriver } from './driver.js';

export interface TaskWorkOptions {
  bus: Bus;
  /** the driver's runTask */
  runTask: NonNullable<ClusterDriver['runTask']>;
  /** the driver's removeTask, for a stop of a task this agent does not run */
  removeTask?: ClusterDriver['removeTask'];
  /** the driver's runsTask: whether a workload started before the agent restarted still runs */
  runsTask?: ClusterDriver['runsTask'];
  /**
   * the agent's stop: ends every task it runs, unreported and unacknowledged, so that the agent's
   * next start gets their runs again
   */
  signal: AbortSignal;
  log: (msg: string) => void;
}

/** What an agent that restarted reports for a task it ran whose workload its driver no longer runs. */
export const RESTARTED = 'the agent restarted and the driver no longer runs this task';

/** A run left unacknowledged when its agent stops: the next agent of the cluster gets it again. */
export class AgentStopped extends Error {
  override name = 'AgentStopped';
}

/** Stops remembered for runs that have not arrived yet; the oldest are forgotten past this. */
const STOPS_KEPT = 10_000;

/**
 * The agent's tasks: a run reports RUNNING and then the end; a stop ends the run (or the run
 * that is still to come: run and stop travel on one subject, but a redelivered run may follow
 * its stop). A run is acknowledged once its task ended: the work queue keeps what the agent
 * runs, so the agent's next start gets the runs it had when it stopped (or died) again. Such a
 * run (a redelivery) is followed to its end when the driver still runs it, and reported ERRORED
 * (RESTARTED) when it does not, instead of ending only by its runtime deadline.
 */
export class TaskWork {
  private readonly runs = new Map<string, AbortController>();
  private readonly stops = new RecentSet<string>(STOPS_KEPT);

  constructor(private readonly o: TaskWorkOptions) {}

  /** `deliveryCount` above 1: an agent before this one held the run (it restarted or died). */
  handle(m: TaskWorkMessage, deliveryCount = 1): Promise<void> {
    return m.type === 'stop-task' ? this.stop(m) : this.run(m, deliveryCount);
  }

  private async run(m: RunTaskMessage, deliveryCount: number): Promise<void> {
    const { runTask, signal, log } = this.o;
    if (this.runs.has(m.taskId)) return; // redelivered while it runs
    if (this.stops.delete(m.taskId)) return log(`task ${m.taskId} was stopped before it ran`);
    if (deliveryCount > 1 && !(await this.o.runsTask?.(m.taskId))) {
      log(`task ${m.taskId}: ${RESTARTED}`);
      // nvct applies it only to a task not ended yet: a run whose end was reported changes nothing
      return this.report(m, 'ERRORED', RESTARTED);
    }
    const ctl = new AbortController();
    // a reason of its own: a driver whose workloads outlive the agent leaves them to its next start
    const onAgentStop = () => ctl.abort(new AgentStopped(`task ${m.taskId}: the agent stopped while it ran`));
    signal.addEventListener('abort', onAgentStop, { once: true });
    this.runs.set(m.taskId, ctl);
    let abandoned = false;
    await runTask(m, ctl.signal, () => this.report(m, 'RUNNING', null))
      .then(
        (exit) =>
          exit.exitCode === 0
            ? this.report(m, 'COMPLETED', exit.message)
            : this.report(m, 'ERRORED', exit.message ?? `exited with code ${exit.exitCode}`),
        (err: Error) => {
          abandoned = signal.aborted;
          return ctl.signal.aborted ? undefined : this.report(m, 'ERRORED', err.message);
        },
      )
      .catch((err: Error) => log(`task ${m.taskId}: reporting its end failed: ${err.message}`))
      .finally(() => {
        signal.removeEventListener('abort', onAgentStop);
        this.runs.delete(m.taskId);
      });
    if (abandoned) throw new AgentStopped(`task ${m.taskId}: the agent stopped while it ran`);
  }

  private async stop(m: StopTaskMessage): Promise<void> {
    const run = this.runs.get(m.taskId);
    if (run) {
      this.o.log(`stopping task ${m.taskId}: ${m.reason}`);
      run.abort(new Error(`task ${m.reason}`));
      return;
    }
    this.stops.add(m.taskId);
    // its run may be still to come, or have run under this agent's predecessor: what that left goes
    await this.o
      .removeTask?.(m.taskId)
      .catch((err: Error) => this.o.log(`task ${m.taskId}: removing what its run left failed: ${err.message}`));
  }

  private async report(m: RunTaskMessage, status: TaskReportStatus, message: string | null): Promise<void> {
    const r: TaskReport = {
      type: 'task-report',
      ncaId: m.ncaId,
      taskId: m.taskId,
      clusterId: m.clusterId,
      status,
      at: new Date().toISOString(),
      message,
    };
    await this.o.bus.publish(subjects.taskReport(m.ncaId, m.taskId), r, { msgId: msgIds.taskReport(r) });
  }
}
