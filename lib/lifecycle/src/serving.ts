import { PhaseState, isClosing, type Phase } from './phase.js';

export interface Readiness {
  status: 200 | 503;
  body: { status: 'ready' | 'starting' | 'draining' };
}

/**
 * A server's phase (a subgraph, the gateway), read by GET /ready and moved by its drain: ready once listening (and the
 * service's own `ready` agrees), 503 from the first moment of a drain.
 */
export class ServingPhase {
  private readonly state = new PhaseState();
  private drained: Promise<void> | undefined;

  /** @param ready readiness beyond "listening" (store reachable, consumers running) */
  constructor(private readonly ready: () => boolean = () => true) {}

  get phase(): Phase {
    return this.state.current;
  }

  listening(): void {
    this.state.enter('ready');
  }

  readiness(): Readiness {
    const phase = this.state.current;
    if (isClosing(phase)) return { status: 503, body: { status: 'draining' } };
    return phase.kind === 'ready' && this.ready()
      ? { status: 200, body: { status: 'ready' } }
      : { status: 503, body: { status: 'starting' } };
  }

  /**
   * Drains once: the first call turns /ready to 503 before `close` starts, every later call
   * (dispose after SIGTERM's drain) waits for that same close.
   */
  drain(close: () => Promise<void>): Promise<void> {
    return (this.drained ??= (async () => {
      this.state.enter('draining');
      await close();
      this.state.enter('stopped');
    })());
  }
}
