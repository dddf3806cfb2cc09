import { createMemoryBus, type Bus } from '@nvcf/bus';
import {
  Streams,
  allStreams,
  msgIds,
  subjects,
  type RunTaskMessage,
  type StopTaskMessage,
  type TaskReport,
} from '@nvcf/contracts';
import { waitUntil } from '@nvcf/testing';
import { RESTARTED, createSimulatedCluster, startAgent, type Agent, type SimulatedCluster } from '../src/index.js';
import { TaskWork } from '../src/tasks.js';

const CLUSTER = 'c1';

describe('the agent runs tasks on its simulated cluster', () => {
  let bus: Bus;
  let driver: SimulatedCluster;
  let agent: Agent;
  const reports: TaskReport[] = [];
  beforeEach(async () => {
    reports.length = 0;
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    await bus.tail<TaskReport>({ stream: Streams.taskReport.name, fromSeq: 1 }, (m) => reports.push(m.data));
    driver = createSimulatedCluster({ clusterId: CLUSTER });
    agent = await startAgent({ bus, driver, operatorCheckMs: 0, log: () => {} });
  });
  afterEach(async () => {
    await agent.stop();
    await bus.dispose();
  });

  const run = (taskId: string, nvcfSimulate: Record<string, unknown>, clusterId = CLUSTER, grace = 'PT30S') => {
    const m: RunTaskMessage = {
      type: 'run-task',
      ncaId: 'nca-a',
      taskId,
      clusterId,
      gpu: 'L40S',
      instanceType: 'gl40s_1.br25_2xlarge',
      workload: { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} },
      configuration: { nvcfSimulate },
      terminationGracePeriodDuration: grace,
    };
    return bus.publish(subjects.taskWork(clusterId), m, { msgId: msgIds.runTask(taskId) });
  };
  const stop = (taskId: string) => {
    const m: StopTaskMessage = { type: 'stop-task', ncaId: 'nca-a', taskId, clusterId: CLUSTER, reason: 'CANCELED' };
    return bus.publish(subjects.taskWork(CLUSTER), m, { msgId: msgIds.stopTask(taskId) });
  };
  const reported = (taskId: string) => reports.filter((r) => r.taskId === taskId).map((r) => [r.status, r.message]);

  it('reports RUNNING, then COMPLETED after runMs', async () => {
    await run('t1', { runMs: 20 });
    await waitUntil(() => reported('t1').length === 2, { what: 't1 reported twice' });
    expect(reported('t1')).toEqual([
      ['RUNNING', null],
      ['COMPLETED', null],
    ]);
    expect(driver.task('t1')).toBe('succeeded');
  });

  it('reports ERRORED with the exit message of a failing task', async () => {
    await run('t1', { runMs: 10, exitCode: 2, message: 'out of memory' });
    await waitUntil(() => reported('t1').length === 2, { what: 't1 reported twice' });
    expect(reported('t1')[1]).toEqual(['ERRORED', 'out of memory']);
    await run('t2', { runMs: 10, exitCode: 7 });
    await waitUntil(() => reported('t2').length === 2, { what: 't2 reported twice' });
    expect(reported('t2')[1]).toEqual(['ERRORED', 'exited with code 7']);
  });

  it('stops a running task when told, and reports no end of its own', async () => {
    await run('t1', { runMs: 60_000 });
    await waitUntil(() => driver.task('t1') === 'running', { what: 't1 running' });
    await stop('t1');
    await waitUntil(() => driver.task('t1') === 'stopped', { what: 't1 stopped' });
    // a later task's reports show the agent went on; none came for t1 after RUNNING
    await run('t2', { runMs: 1 });
    await waitUntil(() => reported('t2').length === 2, { what: 't2 reported twice' });
    expect(reported('t1')).toEqual([['RUNNING', null]]);
  });

  it('gives a stopped workload its grace period to exit, and kills one that takes longer', async () => {
    await run('exits', { runMs: 60_000, stopMs: 300 }, CLUSTER, 'PT2S');
    await run('hangs', { runMs: 60_000, stopMs: 60_000 }, CLUSTER, 'PT0.3S');
    await waitUntil(() => driver.task('exits') === 'running' && driver.task('hangs') === 'running', {
      what: 'both running',
    });
    await stop('exits');
    await stop('hangs');
    await waitUntil(() => driver.task('exits') === 'stopping', { what: 'exits stopping' });
    await waitUntil(() => driver.task('exits') === 'stopped', { what: 'exits stopped within its grace period' });
    await waitUntil(() => driver.task('hangs') === 'killed', { what: 'hangs killed at the end of its grace period' });
    expect(reported('exits')).toEqual([['RUNNING', null]]);
  });

  it('never runs a task whose stop came first', async () => {
    await stop('t1');
    await run('t1', { runMs: 1 });
    await run('t2', { runMs: 1 });
    await waitUntil(() => reported('t2').length === 2, { what: 't2 reported twice' });
    expect(driver.task('t1')).toBeNull();
    expect(reported('t1')).toEqual([]);
  });
});

describe('a stop for a task the agent does not run', () => {
  it("has the driver remove what a run under the agent's predecessor left, and still keeps a later run from starting", async () => {
    await using bus = createMemoryBus();
    const removed: string[] = [];
    const ran: string[] = [];
    const work = new TaskWork({
      bus,
      runTask: async (t) => {
        ran.push(t.taskId);
        return { exitCode: 0, message: null };
      },
      removeTask: async (taskId) => void removed.push(taskId),
      signal: new AbortController().signal,
      log: () => {},
    });
    await work.handle({
      type: 'stop-task',
      ncaId: 'nca-a',
      taskId: 't9',
      clusterId: CLUSTER,
      reason: 'EXCEEDED_MAX_RUNTIME',
    });
    expect(removed).toEqual(['t9']);
    await work.handle({
      type: 'run-task',
      ncaId: 'nca-a',
      taskId: 't9',
      clusterId: CLUSTER,
      gpu: 'L40S',
      instanceType: 'gl40s_1.br25_2xlarge',
      workload: { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} },
      configuration: null,
      terminationGracePeriodDuration: 'PT30S',
    });
    expect(ran).toEqual([]);
  });
});

describe('a task whose agent restarts while it runs', () => {
  let bus: Bus;
  let driver: SimulatedCluster;
  const reports: TaskReport[] = [];
  const agents: Agent[] = [];
  const start = async (d: SimulatedCluster = driver) => {
    const agent = await startAgent({ bus, driver: d, operatorCheckMs: 0, log: () => {} });
    agents.push(agent);
    return agent;
  };
  beforeEach(async () => {
    reports.length = 0;
    agents.length = 0;
    bus = createMemoryBus();
    await bus.ensureStreams(allStreams);
    await bus.tail<TaskReport>({ stream: Streams.taskReport.name, fromSeq: 1 }, (m) => reports.push(m.data));
    driver = createSimulatedCluster({ clusterId: CLUSTER });
  });
  afterEach(async () => {
    for (const a of agents) await a.stop();
    await bus.dispose();
  });

  const run = (taskId: string, runMs: number) => {
    const m: RunTaskMessage = {
      type: 'run-task',
      ncaId: 'nca-a',
      taskId,
      clusterId: CLUSTER,
      gpu: 'L40S',
      instanceType: 'gl40s_1.br25_2xlarge',
      workload: { kind: 'container', image: 'nvcr.io/nca-a/eval:1', args: [], environment: {} },
      configuration: { nvcfSimulate: { runMs } },
      terminationGracePeriodDuration: 'PT30S',
    };
    return bus.publish(subjects.taskWork(CLUSTER), m, { msgId: msgIds.runTask(taskId) });
  };
  const reported = (taskId: string) => reports.filter((r) => r.taskId === taskId).map((r) => [r.status, r.message]);
  const queued = async () => (await bus.streamInfo(Streams.taskWork.name)).messages;

  it('keeps the run until the task ends, and reports it ERRORED after a restart whose driver no longer runs it', async () => {
    const first = await start();
    await run('t1', 60_000);
    await waitUntil(() => reported('t1').length === 1, { what: 't1 RUNNING' });
    // running: its run is still in the work queue, not acknowledged
    expect(await queued()).toBe(1);
    await first.stop();
    // the simulated workload ended with its agent (it exits in its grace period: at once, stopMs 0)
    await waitUntil(() => driver.task('t1') === 'stopped', { what: 't1 stopped with its agent' });
    expect(reported('t1')).toEqual([['RUNNING', null]]);

    await start();
    await waitUntil(() => reported('t1').length === 2, { what: 't1 reported after the restart' });
    expect(reported('t1')).toEqual([
      ['RUNNING', null],
      ['ERRORED', RESTARTED],
    ]);
    await waitUntil(async () => (await queued()) === 0, { what: 'the run acknowledged' });
  });

  it('follows the task to its end after a restart when the driver still runs it', async () => {
    // a driver whose workloads outlive the agent: it still runs t1 after the restart
    const lasting = Object.assign(Object.create(driver) as SimulatedCluster, { runsTask: async () => true });
    const first = await start(lasting);
    await run('t1', 60_000);
    await waitUntil(() => reported('t1').length === 1, { what: 't1 RUNNING' });
    await first.stop();
    await start(lasting);
    // the simulated driver starts it again (a real one follows the workload it still has): 60 s more
    await waitUntil(() => driver.task('t1') === 'running', { what: 't1 followed' });
    expect(reported('t1')).toEqual([['RUNNING', null]]);
    expect(await queued()).toBe(1);
  });

  it('acknowledges a run once its task ended: a restart after that reports nothing more', async () => {
    const first = await start();
    await run('t1', 10);
    await waitUntil(() => reported('t1').length === 2, { what: 't1 ended' });
    await waitUntil(async () => (await queued()) === 0, { what: 'the run acknowledged' });
    await first.stop();
    await start();
    await run('t2', 10);
    await waitUntil(() => reported('t2').length === 2, { what: 't2 ended' });
    expect(reported('t1')).toEqual([
      ['RUNNING', null],
      ['COMPLETED', null],
    ]);
  });
});
