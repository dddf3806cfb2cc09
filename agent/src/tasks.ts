import type { Bus } from '@nvcf/bus';
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
  /** the agent's stop: ends every task it runs, unreported (nvct's runtime deadline ends them) */
  signal: AbortSignal;
  log: (msg: string) => void;
}

/** Stops remembered for runs that have not arrived yet; the oldest are forgotten past this. */
const STOPS_KEPT = 10_000;

/**
 * The agent's tasks: a run reports RUNNING and then the end; a stop ends the run (or the run
 * that is still to come: run and stop travel on one subject, but a redelivered run may follow
 * its stop). A run is acknowledged once it runs; its end is reported whenever it comes.
 */
export class TaskWork {
  private readonly runs = new Map<string, AbortController>();
  private readonly stops = new Set<string>();

  constructor(private readonly o: TaskWorkOptions) {}

  handle(m: TaskWorkMessage): Promise<void> {
    return m.type === 'stop-task' ? this.stop(m) : this.run(m);
  }

  private async run(m: RunTaskMessage): Promise<void> {
    const { runTask, signal, log } = this.o;
    if (this.runs.has(m.taskId)) return; // redelivered while it runs
    if (this.stops.delete(m.taskId)) return log(`task ${m.taskId} was stopped before it ran`);
    const ctl = new AbortController();
    const onAgentStop = () => ctl.abort(signal.reason);
    signal.addEventListener('abort', onAgentStop, { once: true });
    this.runs.set(m.taskId, ctl);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const ended = runTask(m, ctl.signal, async () => {
      await this.report(m, 'RUNNING', null);
      started();
    })
      .then(
        (exit) =>
          exit.exitCode === 0
            ? this.report(m, 'COMPLETED', exit.message)
            : this.report(m, 'ERRORED', exit.message ?? `exited with code ${exit.exitCode}`),
        (err: Error) => (ctl.signal.aborted ? undefined : this.report(m, 'ERRORED', err.message)),
      )
      .catch((err: Error) => log(`task ${m.taskId}: reporting its end failed: ${err.message}`))
      .finally(() => {
        signal.removeEventListener('abort', onAgentStop);
        this.runs.delete(m.taskId);
      });
    await Promise.race([running, ended]);
  }

  private async stop(m: StopTaskMessage): Promise<void> {
    const run = this.runs.get(m.taskId);
    if (run) {
      this.o.log(`stopping task ${m.taskId}: ${m.reason}`);
      run.abort(new Error(`task ${m.reason}`));
      return;
    }
    this.stops.add(m.taskId);
    if (this.stops.size > STOPS_KEPT) this.stops.delete(this.stops.values().next().value!);
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
