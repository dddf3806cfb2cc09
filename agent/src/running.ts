import type { Consumer } from '@nvcf/bus';
import { PhaseState, type Phase } from '@nvcf/lifecycle';

/**
 * A started agent's consumers and the stop signal its work listens to, with its phase:
 * ready while consuming, draining while work in flight may finish, stopped once it takes no work.
 */
export class RunningAgent implements AsyncDisposable {
  private readonly state = new PhaseState();

  constructor(
    readonly clusterId: string,
    private readonly consumers: readonly Consumer[],
    private readonly abort: AbortController,
  ) {
    this.state.enter('ready');
  }

  get phase(): Phase {
    return this.state.current;
  }

  /** Stops consuming and abandons work in flight at once (its messages are redelivered). */
  async stop(): Promise<void> {
    this.state.enter('stopped');
    this.abort.abort(new Error('agent stopping'));
    await Promise.all(this.consumers.map((c) => c.stop()));
  }

  /** Stops consuming; applies in flight may finish and report within the grace, the rest are abandoned to redelivery. */
  async drain(graceMs: number): Promise<void> {
    this.state.enter('draining');
    await Promise.all(this.consumers.map((c) => c.stop({ graceMs })));
    this.abort.abort(new Error('agent stopping'));
    this.state.enter('stopped');
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}
