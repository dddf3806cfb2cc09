import type { TaskStatus } from './model.js';

/** Task transitions this process stored, by the status they reached (a bounded set: the enum). */
export class TaskMetrics {
  private readonly transitions = new Map<TaskStatus, number>();

  transitioned(status: TaskStatus): void {
    this.transitions.set(status, (this.transitions.get(status) ?? 0) + 1);
  }

  render(): string {
    const name = 'nvcf_nvct_task_transitions_total';
    return [
      `# HELP ${name} Task transitions stored by this process, by the status reached.`,
      `# TYPE ${name} counter`,
      ...[...this.transitions].map(([s, n]) => `${name}{status="${s}"} ${n}`),
      '',
    ].join('\n');
  }
}
