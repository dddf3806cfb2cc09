import { Kind, parse, print, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import type { TaskStatusEvent } from '@nvcf/contracts';
import type { Feed, FeedEvent, FeedSink, StatusStream, StreamEvent } from '@nvcf/status-stream';
import { fieldsOf, statusOperation, type StatusOperation } from '../../src/status/operation.js';
import { remoteQuery, type EntityFetcher, type PreparedEntities } from '../../src/status/entities.js';
import { runStatusSubscription } from '../../src/status/execute.js';
import { serializedResult } from '../../src/status/serialize.js';

/** What the guard hands over: the parsed document, its operation and its fragments. */
function admitted(query: string, operationName?: string) {
  const document = parse(query);
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = (operationName ? ops.find((o) => o.name?.value === operationName) : ops[0])!;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  return { document, operation, fragments };
}
const op = (query: string, operationName?: string) => statusOperation(admitted(query, operationName));
const must = (query: string, operationName?: string): StatusOperation => {
  const o = op(query, operationName);
  if (!o) throw new Error('not a status operation');
  return o;
};
/** The response names of the instance selections' fields, through fragments. */
const instanceKeys = (o: StatusOperation) =>
  o.entityFields.flatMap((f) => fieldsOf(f.selectionSet, o.fragments).map((x) => x.alias?.value ?? x.name.value));

describe('statusOperation', () => {
  it('recognises instanceStatusChanged and finds its instance selection', () => {
    const o = must('subscription { instanceStatusChanged(functionId: "f") { cursor state instance { id state } } }');
    expect(o.entityFields).toHaveLength(1);
    expect(instanceKeys(o)).toEqual(['id', 'state']);
    expect(o.needsRemote).toBe(false);
  });

  it('is null for queries, mutations, other subscription roots and two root fields', () => {
    expect(op('query { functions { id } }')).toBeNull();
    expect(op('mutation { rollbackGpuSpecification(id: "s") { id } }')).toBeNull();
    expect(op('subscription { somethingElse { id } }')).toBeNull();
    expect(
      op(
        'subscription { a: instanceStatusChanged(functionId: "f") { cursor } b: instanceStatusChanged(versionId: "v") { cursor } }',
      ),
    ).toBeNull();
    expect(op('subscription { instanceStatusChanged(functionId: "f") { cursor } other { id } }')).toBeNull();
  });

  it('takes the operation the guard selected among several', () => {
    const q = 'query Q { functions { id } } subscription S { instanceStatusChanged(functionId: "f") { cursor } }';
    expect(op(q, 'Q')).toBeNull();
    expect(must(q, 'S').operation.name?.value).toBe('S');
  });

  it('looks through an alias on the root field and on event and instance fields', () => {
    const o = must(
      'subscription { watch: instanceStatusChanged(functionId: "f") { c: cursor i: instance { s: state where: cluster { id } } } }',
    );
    expect(o.entityFields.map((f) => f.alias?.value)).toEqual(['i']);
    expect(instanceKeys(o)).toEqual(['s', 'where']);
    expect(o.needsRemote).toBe(false);
  });

  it('finds the root field and the instance selection through named, inline and nested fragments', () => {
    const o = must(`
      subscription { ...Root }
      fragment Root on Subscription { instanceStatusChanged(functionId: "f") { ...Event } }
      fragment Event on InstanceStatusEvent { cursor ... on InstanceStatusEvent { instance { ...Inst } } }
      fragment Inst on Instance { id ... { state } ...Where }
      fragment Where on Instance { cluster { name } }
    `);
    expect(o.entityFields).toHaveLength(1);
    expect(instanceKeys(o)).toEqual(['id', 'state', 'cluster']);
    expect(o.needsRemote).toBe(true); // cluster.name lives in ICMS, found two fragments deep
  });

  it('collects every instance selection of the event (two aliases of instance)', () => {
    const o = must(
      'subscription { instanceStatusChanged(functionId: "f") { a: instance { id } b: instance { gpuSpecification { instances { id } } } } }',
    );
    expect(o.entityFields.map((f) => f.alias?.value)).toEqual(['a', 'b']);
    expect(o.needsRemote).toBe(true);
  });

  it.each([
    ['local fields only', '{ id state revisionId targetRevisionId updatedAt __typename }', false],
    ['the keys of keyed entities', '{ cluster { id __typename } gpuSpecification { id } }', false],
    ['a keyed entity through a fragment on it', '{ cluster { ... on Cluster { id } } }', false],
    ['a cluster field beyond its key', '{ cluster { id name } }', true],
    ['a GPU specification field beyond its key', '{ gpuSpecification { gpu } }', true],
    ['an alias does not hide a remote field', '{ n: cluster { label: name } }', true],
  ])('needsRemote: %s', (_label, selection, remote) => {
    expect(must(`subscription { instanceStatusChanged(functionId: "f") { instance ${selection} } }`).needsRemote).toBe(
      remote,
    );
  });

  it('needsRemote is false without any instance selection', () => {
    const o = must('subscription { instanceStatusChanged(functionId: "f") { cursor state at } }');
    expect(o.entityFields).toEqual([]);
    expect(o.needsRemote).toBe(false);
  });

  it('counts a remote field under @skip/@include as needed (the fetch is conservative; execution drops it)', () => {
    expect(
      must(
        'subscription { instanceStatusChanged(functionId: "f") { instance { id cluster @skip(if: true) { name } } } }',
      ).needsRemote,
    ).toBe(true);
    expect(
      must(
        'subscription($c: Boolean!) { instanceStatusChanged(functionId: "f") { instance { id cluster @include(if: $c) { name } } } }',
      ).needsRemote,
    ).toBe(true);
  });

  it('does not follow a fragment cycle', () => {
    const o = admitted(
      'subscription { ...A } fragment A on Subscription { ...B } fragment B on Subscription { ...A instanceStatusChanged(functionId: "f") { cursor } }',
    );
    expect(fieldsOf(o.operation.selectionSet, o.fragments).map((f) => f.name.value)).toEqual(['instanceStatusChanged']);
  });
});

describe('remoteQuery', () => {
  it('asks for the instance selection by id, with only the fragments and variables it uses', () => {
    const o = must(`
      subscription($f: ID!, $withCluster: Boolean!, $unused: String) {
        instanceStatusChanged(functionId: $f, after: $unused) { cursor ...Ev instance { id ...Inst } }
      }
      fragment Ev on InstanceStatusEvent { state }
      fragment Inst on Instance { c: cluster @include(if: $withCluster) { ...Name } }
      fragment Name on Cluster { name }
    `);
    const q = remoteQuery(o, { f: 'fn', withCluster: true, unused: 'x' });
    expect(q.variables).toEqual({ withCluster: true });
    const doc = parse(q.query);
    const defs = doc.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => f.name.value)
      .sort();
    expect(defs).toEqual(['Inst', 'Name']);
    const opDef = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    expect(opDef.variableDefinitions!.map((v) => v.variable.name.value)).toEqual(['__ids', 'withCluster']);
    expect(q.query).toContain('__entities: instances(ids: $__ids)');
    expect(q.query).toContain('__nvcfEntityId: id');
  });
});

// --- execution of the event selection -------------------------------------------------------

const event = (over: Partial<FeedEvent['event']> = {}): FeedEvent => ({
  seq: 1,
  cursor: 'cur-1',
  kind: 'TRANSITION',
  lag: null,
  event: {
    ncaId: 't',
    functionId: 'fn',
    versionId: 'v',
    gpuSpecificationId: 'spec-1',
    clusterId: 'cluster-1',
    instanceId: 'i-1',
    state: 'ACTIVE',
    previousState: 'STARTING',
    revisionId: 'r-1',
    at: '2025-01-01T00:00:00.000Z',
    clock: 1,
    ...over,
  },
});

/** A stream that records what was opened and hands out the given events, then ends. */
function fakeStream(events: FeedEvent<StreamEvent>[]) {
  const opened: { tenant: string; filter: Record<string, unknown>; opts: Record<string, unknown> }[] = [];
  const stream = {
    async open(
      tenant: string,
      filter: Record<string, unknown>,
      opts: Record<string, unknown>,
    ): Promise<Feed<StreamEvent>> {
      opened.push({ tenant, filter, opts });
      const queue = [...events];
      const feed = {
        tenant,
        end() {},
        next: async () =>
          queue.length ? { done: false as const, value: queue.shift()! } : { done: true as const, value: undefined },
        poll: () => queue.shift(),
        return: async () => ({ done: true as const, value: undefined }),
        attach(sink: FeedSink<StreamEvent>) {
          while (queue.length) if (!sink.push(queue.shift()!)) return;
          sink.end();
        },
        [Symbol.asyncIterator]: () => feed,
      };
      return feed;
    },
  };
  return { stream: stream as unknown as StatusStream, opened };
}

/** Instance rows as the supergraph would answer them, and the loads asked for. */
function fakeEntities(rows: Record<string, Record<string, unknown> | null>) {
  const loads: { query: string; id: string }[] = [];
  const fetcher = {
    prepare: (tenant: string, o: StatusOperation, variables: Record<string, unknown>): PreparedEntities => ({
      tenant,
      key: 'k',
      maxBatch: 1000,
      ...remoteQuery(o, variables),
    }),
    load: async (q: PreparedEntities, id: string) => {
      loads.push({ query: q.query, id });
      return rows[id] ?? null;
    },
  };
  return { entities: fetcher as unknown as EntityFetcher, loads };
}

async function firstResult(
  query: string,
  variables: Record<string, unknown> = {},
  opts: { events?: FeedEvent<StreamEvent>[]; rows?: Record<string, Record<string, unknown> | null> } = {},
) {
  const { stream, opened } = fakeStream(opts.events ?? [event()]);
  const { entities, loads } = fakeEntities(opts.rows ?? {});
  const run = await runStatusSubscription({ op: must(query), variables, tenant: 't', stream, entities });
  if (!('events' in run)) throw new Error(`no feed: ${JSON.stringify(run)}`);
  const r = await run.events.next();
  if (r.done) throw new Error('no event');
  return { result: r.value.result, cursor: r.value.cursor, opened, loads };
}

describe('status event execution', () => {
  it('answers local fields from the event itself, with no remote fetch', async () => {
    const { result, cursor, loads } = await firstResult(
      'subscription { instanceStatusChanged(functionId: "fn") { cursor state previousState instance { id state revisionId cluster { id } gpuSpecification { id } __typename } } }',
    );
    expect(cursor).toBe('cur-1');
    expect(loads).toEqual([]);
    expect(result).toEqual({
      data: {
        instanceStatusChanged: {
          cursor: 'cur-1',
          state: 'ACTIVE',
          previousState: 'STARTING',
          instance: {
            id: 'i-1',
            state: 'ACTIVE',
            revisionId: 'r-1',
            cluster: { id: 'cluster-1' },
            gpuSpecification: { id: 'spec-1' },
            __typename: 'Instance',
          },
        },
      },
    });
  });

  it('passes filters given as variables and literals to the stream, with the snapshot default', async () => {
    const { opened } = await firstResult(
      'subscription($v: ID, $after: String) { instanceStatusChanged(versionId: $v, instanceId: "i-1", after: $after) { cursor } }',
      { v: 'v-9', after: 'c-0' },
    );
    expect(opened).toEqual([
      {
        tenant: 't',
        filter: { versionId: 'v-9', instanceId: 'i-1', after: 'c-0', snapshot: false },
        opts: { after: 'c-0', snapshot: false },
      },
    ]);
  });

  it('keeps aliases on the root field and on event and instance fields', async () => {
    const { result } = await firstResult(
      'subscription { w: instanceStatusChanged(functionId: "fn") { c: cursor now: state i: instance { s: state where: cluster { key: id } } } }',
    );
    expect(result.data).toEqual({ w: { c: 'cur-1', now: 'ACTIVE', i: { s: 'ACTIVE', where: { key: 'cluster-1' } } } });
  });

  it('executes through named, inline and nested fragments', async () => {
    const { result } = await firstResult(`
      subscription { ...Root }
      fragment Root on Subscription { instanceStatusChanged(functionId: "fn") { ...Event } }
      fragment Event on InstanceStatusEvent { cursor ... on InstanceStatusEvent { instance { ...Inst } } }
      fragment Inst on Instance { id ... { state } }
    `);
    expect(result.data).toEqual({
      instanceStatusChanged: { cursor: 'cur-1', instance: { id: 'i-1', state: 'ACTIVE' } },
    });
  });

  it('honours @include and @skip, with literals and with variables', async () => {
    const q =
      'subscription($withState: Boolean!, $noCursor: Boolean!) { instanceStatusChanged(functionId: "fn") { cursor @skip(if: $noCursor) state @include(if: $withState) at @include(if: false) previousState @skip(if: false) } }';
    expect((await firstResult(q, { withState: true, noCursor: false })).result.data).toEqual({
      instanceStatusChanged: { cursor: 'cur-1', state: 'ACTIVE', previousState: 'STARTING' },
    });
    expect((await firstResult(q, { withState: false, noCursor: true })).result.data).toEqual({
      instanceStatusChanged: { previousState: 'STARTING' },
    });
  });

  it('fetches a remote selection by id and reads it by response key (aliases included)', async () => {
    const rows = { 'i-1': { __nvcfEntityId: 'i-1', c: { name: 'Cluster A' } } };
    const { result, loads } = await firstResult(
      'subscription { instanceStatusChanged(functionId: "fn") { state instance { id st: state c: cluster { name } } } }',
      {},
      { rows },
    );
    expect(loads).toHaveLength(1);
    expect(loads[0].id).toBe('i-1');
    expect(loads[0].query).toContain('c: cluster');
    // the remote fields are the supergraph's, the instance fields the event carries the event's
    expect(result.data).toEqual({
      instanceStatusChanged: { state: 'ACTIVE', instance: { id: 'i-1', st: 'ACTIVE', c: { name: 'Cluster A' } } },
    });
  });

  it("answers the event's own instance fields from the event whatever else is selected, and asks only for the rest", async () => {
    // the store behind the fetch has moved on (or not caught up): its state is not this transition's
    const stored = {
      __nvcfEntityId: 'i-1',
      id: 'i-1',
      state: 'UPDATING',
      revisionId: 'r-0',
      updatedAt: '2024-12-31T00:00:00.000Z',
      cluster: { id: 'cluster-1', name: 'Cluster A' },
      gpuSpecification: { id: 'spec-1' },
    };
    const selection =
      'id state revisionId updatedAt s: state k: cluster { id } gpuSpecification { id } cluster { name } ...Fields';
    const { result, loads } = await firstResult(
      `subscription { instanceStatusChanged(functionId: "fn") { instance { ${selection} } } }
       fragment Fields on Instance { targetRevisionId }`,
      {},
      { rows: { 'i-1': stored } },
    );
    const asked = parse(loads[0].query);
    const op = asked.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const entities = op.selectionSet.selections[0] as FieldNode;
    // the event's fields selected directly are left out; a fragment is sent as written
    expect(entities.selectionSet!.selections.map((x) => print(x))).toEqual([
      '__nvcfEntityId: id',
      'cluster {\n  name\n}',
      '...Fields',
    ]);
    expect(result.data).toEqual({
      instanceStatusChanged: {
        instance: {
          id: 'i-1',
          state: 'ACTIVE',
          revisionId: 'r-1',
          updatedAt: '2025-01-01T00:00:00.000Z',
          s: 'ACTIVE',
          k: { id: 'cluster-1' },
          gpuSpecification: { id: 'spec-1' },
          cluster: { name: 'Cluster A' },
          targetRevisionId: null,
        },
      },
    });
    // the same fields, selected without a remote one, read the same
    const alone = await firstResult(
      'subscription { instanceStatusChanged(functionId: "fn") { instance { id state revisionId updatedAt } } }',
    );
    expect(alone.loads).toEqual([]);
    expect(alone.result.data).toEqual({
      instanceStatusChanged: {
        instance: { id: 'i-1', state: 'ACTIVE', revisionId: 'r-1', updatedAt: '2025-01-01T00:00:00.000Z' },
      },
    });
  });

  it('fetches a response key whole when one of its fields is remote (a key beside a remote field of the same object)', async () => {
    const rows = { 'i-1': { __nvcfEntityId: 'i-1', cluster: { id: 'cluster-1', name: 'Cluster A' } } };
    for (const query of [
      'subscription { instanceStatusChanged(functionId: "fn") { instance { cluster { id } cluster { name } } } }',
      `subscription { instanceStatusChanged(functionId: "fn") { instance { ...K cluster { name } } } }
       fragment K on Instance { cluster { id } }`,
    ]) {
      const { result, loads } = await firstResult(query, {}, { rows });
      expect(loads[0].query).toContain('cluster {');
      expect(result.data).toEqual({
        instanceStatusChanged: { instance: { cluster: { id: 'cluster-1', name: 'Cluster A' } } },
      });
    }
  });

  it('sends the remote query only the variables the instance selection uses', async () => {
    const rows = { 'i-1': { __nvcfEntityId: 'i-1', cluster: { name: 'Cluster A' } } };
    const q =
      'subscription($f: ID!, $c: Boolean!) { instanceStatusChanged(functionId: $f) { instance { cluster @include(if: $c) { name } } } }';
    const on = await firstResult(q, { f: 'fn', c: true }, { rows });
    expect(on.result.data).toEqual({ instanceStatusChanged: { instance: { cluster: { name: 'Cluster A' } } } });
    expect(on.loads[0].query).toContain('@include(if: $c)');
    const off = await firstResult(q, { f: 'fn', c: false }, { rows });
    expect(off.result.data).toEqual({ instanceStatusChanged: { instance: {} } });
  });

  it('an instance the supergraph does not know fails that event with an error, not the stream', async () => {
    const { result, cursor } = await firstResult(
      'subscription { instanceStatusChanged(functionId: "fn") { cursor instance { cluster { name } } } }',
      {},
      { rows: {} },
    );
    expect(cursor).toBe('cur-1');
    expect(result.data).toBeNull();
    expect(result.errors?.length).toBeGreaterThan(0);
  });

  it('push mode: local results reach the sink in the same turn; remote ones in event order, each after its load', async () => {
    const two = [event(), event({ instanceId: 'i-2', state: 'FAILED' })].map((e, i) => ({
      ...e,
      seq: i + 1,
      cursor: `cur-${i + 1}`,
    }));
    const pushed = async (query: string, rows: Record<string, Record<string, unknown> | null>) => {
      const { stream } = fakeStream(two);
      const { entities } = fakeEntities(rows);
      const run = await runStatusSubscription({ op: must(query), variables: {}, tenant: 't', stream, entities });
      if (!('events' in run)) throw new Error(`no feed: ${JSON.stringify(run)}`);
      const got: { cursor: string; data: unknown }[] = [];
      let ended!: () => void;
      const end = new Promise<void>((r) => (ended = r));
      run.push({ push: (result, cursor) => (got.push({ cursor, data: result.data }), true), end: () => ended() });
      // what had arrived before anything could be awaited
      return { got, end, atOnce: got.length };
    };
    const local = await pushed('subscription { instanceStatusChanged(functionId: "fn") { cursor state } }', {});
    expect(local.atOnce).toBe(2); // both results, in push's own turn
    expect(local.got).toEqual([
      { cursor: 'cur-1', data: { instanceStatusChanged: { cursor: 'cur-1', state: 'ACTIVE' } } },
      { cursor: 'cur-2', data: { instanceStatusChanged: { cursor: 'cur-2', state: 'FAILED' } } },
    ]);
    const rows = {
      'i-1': { __nvcfEntityId: 'i-1', cluster: { name: 'A' } },
      'i-2': { __nvcfEntityId: 'i-2', cluster: { name: 'B' } },
    };
    const remote = await pushed(
      'subscription { instanceStatusChanged(functionId: "fn") { instance { cluster { name } } } }',
      rows,
    );
    expect(remote.atOnce).toBe(0); // the first load was still out
    expect(remote.got).toEqual([]); // and still is, once the subscription is open
    await remote.end;
    expect(remote.got.map((g) => g.cursor)).toEqual(['cur-1', 'cur-2']);
    expect(remote.got[1].data).toEqual({ instanceStatusChanged: { instance: { cluster: { name: 'B' } } } });
  });

  it('serializes a result once and returns the same JSON for the same result object', () => {
    const result = { data: { instanceStatusChanged: { cursor: 'c', state: 'ACTIVE' } } };
    const first = serializedResult(result);
    expect(JSON.parse(first)).toEqual(result);
    result.data.instanceStatusChanged.state = 'FAILED'; // shared results are immutable: the cached text stands
    expect(serializedResult(result)).toBe(first);
    expect(serializedResult({ ...result })).not.toBe(first);
  });
});

// --- taskStatusChanged: the same path, another field ------------------------------------------

const taskEvent = (over: Partial<TaskStatusEvent> = {}): FeedEvent<TaskStatusEvent> => ({
  seq: 7,
  cursor: 'cur-7',
  kind: 'TRANSITION',
  lag: null,
  event: {
    type: 'task-status',
    ncaId: 't',
    taskId: 'task-1',
    seq: 3,
    status: 'RUNNING',
    previousStatus: 'LAUNCHED',
    at: '2025-01-01T00:00:00.000Z',
    message: null,
    ...over,
  },
});

describe('taskStatusChanged on the status path', () => {
  it('is a status operation of its own field, served from the event while it selects only the task id and status', () => {
    const local = must('subscription { taskStatusChanged { cursor task { id status __typename } } }');
    expect(local.field.name).toBe('taskStatusChanged');
    expect(local.needsRemote).toBe(false);
    const remote = must('subscription { taskStatusChanged(taskId: "task-1") { task { name } } }');
    expect(remote.needsRemote).toBe(true);
    expect(op('subscription { taskStatusChanged { cursor } instanceStatusChanged(functionId: "f") { cursor } }')).toBe(
      null,
    );
  });

  it("asks nvct for a batch's tasks by their ids in one query", () => {
    const q = remoteQuery(must('subscription { taskStatusChanged { t: task { n: name createdAt } } }'), {});
    expect(q.query).toContain('query NvcfStatusTasks($__ids: [ID!]!)');
    expect(q.query).toContain('__entities: tasksByIds(ids: $__ids)');
    expect(q.query).toContain('n: name');
  });

  it("executes the event's own fields, passes the filter to the stream, and loads the rest by the task's id", async () => {
    const local = await firstResult(
      'subscription { taskStatusChanged(taskId: "task-1", snapshot: true) { cursor at status message task { id status } lag { skippedEvents resumeAfter } } }',
      {},
      { events: [{ ...taskEvent(), lag: { skippedEvents: 2, resumeAfter: 'cur-4' } }] },
    );
    expect(local.loads).toEqual([]);
    expect(local.opened).toEqual([
      { tenant: 't', filter: { taskId: 'task-1', snapshot: true }, opts: { after: undefined, snapshot: true } },
    ]);
    expect(local.result).toEqual({
      data: {
        taskStatusChanged: {
          cursor: 'cur-7',
          at: '2025-01-01T00:00:00.000Z',
          status: 'RUNNING',
          message: null,
          task: { id: 'task-1', status: 'RUNNING' },
          lag: { skippedEvents: 2, resumeAfter: 'cur-4' },
        },
      },
    });
    const remote = await firstResult(
      'subscription { taskStatusChanged { status task { id name } } }',
      {},
      { events: [taskEvent()], rows: { 'task-1': { __nvcfEntityId: 'task-1', id: 'task-1', name: 'train' } } },
    );
    expect(remote.loads.map((l) => l.id)).toEqual(['task-1']);
    expect(remote.result.data).toEqual({
      taskStatusChanged: { status: 'RUNNING', task: { id: 'task-1', name: 'train' } },
    });
  });
});
