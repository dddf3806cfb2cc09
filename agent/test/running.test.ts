/** A started agent's phase and the order of its stop and its drain, on consumers that record what they are told. */
import type { Consumer } from '@nvcf/bus';
import { RunningAgent } from '../src/running.js';

/** A consumer whose stop records its grace and whether the agent's signal had already fired. */
function recording(log: string[], abort: AbortController, name: string): Consumer {
  return {
    stop: async (o?: { graceMs?: number }) => {
      log.push(`${name} stop grace=${o?.graceMs ?? '-'} aborted=${abort.signal.aborted}`);
    },
  };
}

describe('RunningAgent', () => {
  it('is ready once started', () => {
    const abort = new AbortController();
    const agent = new RunningAgent('c1', [], abort);
    expect(agent.clusterId).toBe('c1');
    expect(agent.phase).toEqual({ kind: 'ready' });
  });

  it('drains: consumers stop with the grace first, the signal fires after, then it is stopped', async () => {
    const log: string[] = [];
    const abort = new AbortController();
    const agent = new RunningAgent('c1', [recording(log, abort, 'a'), recording(log, abort, 'b')], abort);
    const drained = agent.drain(2500);
    expect(agent.phase.kind).toBe('draining');
    await drained;
    expect(log).toEqual(['a stop grace=2500 aborted=false', 'b stop grace=2500 aborted=false']);
    expect(abort.signal.aborted).toBe(true);
    expect(agent.phase).toEqual({ kind: 'stopped' });
  });

  it('stops: the signal fires first (work in flight is abandoned), then the consumers stop', async () => {
    const log: string[] = [];
    const abort = new AbortController();
    const agent = new RunningAgent('c1', [recording(log, abort, 'a')], abort);
    const stopped = agent.stop();
    expect(agent.phase.kind).toBe('stopped');
    await stopped;
    expect(log).toEqual(['a stop grace=- aborted=true']);
    expect((abort.signal.reason as Error).message).toBe('agent stopping');
  });

  it('stays stopped when disposed after a drain', async () => {
    const log: string[] = [];
    const abort = new AbortController();
    const agent = new RunningAgent('c1', [recording(log, abort, 'a')], abort);
    await agent.drain(0);
    await agent[Symbol.asyncDispose]();
    expect(agent.phase.kind).toBe('stopped');
    expect(log).toEqual(['a stop grace=0 aborted=false', 'a stop grace=- aborted=true']);
  });
});
