import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Streams, subjects, type StatusEvent } from '@nvcf/contracts';
import type { DeadLetter } from '@nvcf/bus';
import { DisposalStack } from '@nvcf/lifecycle';
import { statusConsumers, type System } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import {
  describeReal,
  startRealSystem,
  httpClient,
  deployedHelm,
  readSpec,
  statusLog,
  runOpsCommand,
  statusDurables,
} from '@nvcf/test';
import { startPrivateNats, type PrivateNats } from '../services/nats-private.js';
import { fast } from './suites/system.js';

describeReal('NATS JetStream and Cassandra: the dead-letter stream', () => {
  // a private NATS: every reader on a shared one would dead-letter these poison messages too
  const stack = new DisposalStack();
  let nats: PrivateNats;
  let system: System;
  const suffix = `_${Date.now().toString(36)}`;
  beforeAll(async () => {
    nats = stack.use(await startPrivateNats());
    system = await startRealSystem(fast, { natsUrl: nats.url, suffix });
    stack.defer(() => system.dispose());
  }, 120_000);
  afterAll(() => stack.disposeAsync(), 60_000);

  it('a poison status message lands there from every reader; replaying a fixed copy applies it; purge empties it', async () => {
    const a = httpClient(system.url, 'dev-token-a');
    const d = await deployedHelm(a, { minInstances: 1, maxInstances: 1 });
    const [instanceId] = d.instanceIds;
    await using log = await statusLog(system.backends.bus, 'nca-a', 1);
    await log.caughtUp;
    const last = log.events.filter((e) => e.instanceId === instanceId).at(-1)!;
    const { seq: _seq, ...valid } = last;

    // what a broken agent could publish: bytes that are not JSON, and an event without its clock
    const nc = await connect({ servers: nats.url });
    stack.defer(() => nc.close());
    const js = jetstream(nc);
    const subject = subjects.status('nca-a', instanceId);
    const notJson = await js.publish(subject, '{"instanceId": "i-1", "state": ');
    const { clock: _clock, ...noClock } = valid;
    const invalid = await js.publish(subject, JSON.stringify({ ...noClock, state: 'FAILED' }));

    const durables = statusDurables(suffix);
    const dead = await waitUntil(
      async () => {
        const all = await system.backends.bus.deadLetters.list({ stream: Streams.status.name });
        return all.length === 2 * durables.length && all;
      },
      { what: 'both messages dead-lettered by each of the three readers', timeoutMs: 30_000 },
    );
    const from = (seq: number) => dead.filter((x) => x.seq === seq);
    expect(
      from(notJson.seq)
        .map((x) => x.durable)
        .sort(),
    ).toEqual([...durables].sort());
    expect(
      from(invalid.seq)
        .map((x) => x.durable)
        .sort(),
    ).toEqual([...durables].sort());
    for (const x of from(notJson.seq))
      expect(x).toMatchObject({ subject, deliveries: 1, error: expect.stringContaining('payload is not JSON') });
    for (const x of from(invalid.seq))
      expect(x).toMatchObject({
        subject,
        deliveries: 1,
        error: 'PoisonMessage: not a status event: clock must be a non-negative integer (got nothing)',
      });
    // the readers went on: the instance is still ACTIVE, nothing half-stored
    expect((await readSpec(a, d.specId))!.instances[0].state).toBe('ACTIVE');

    const env = { NATS_URL: nats.url };
    const listed = await runOpsCommand('streams', ['dead-letters', 'list', '--stream', Streams.status.name], env);
    expect(listed.code).toBe(0);
    for (const x of dead) expect(listed.stdout).toContain(`${subject}#${x.seq}`);
    expect(listed.stdout).toContain('clock must be a non-negative integer');
    const json = await runOpsCommand('streams', ['dead-letters', 'list', '-o', 'json'], env);
    expect((JSON.parse(json.stdout) as DeadLetter[]).map((x) => x.id)).toEqual(dead.map((x) => x.id));

    // an operator fixes the event (gives it its clock) and replays it: every reader applies it
    const nvcfCopy = from(invalid.seq).find((x) => x.durable.endsWith(statusConsumers(suffix).nvcf))!;
    const shown = await runOpsCommand('streams', ['dead-letters', 'show', String(nvcfCopy.id)], env);
    expect(shown.stdout).toContain(`durable:      ${nvcfCopy.durable}`);
    const fixed: StatusEvent = {
      ...(JSON.parse(nvcfCopy.data) as StatusEvent),
      clock: valid.clock + 1,
      message: 'replayed',
    };
    const file = join(mkdtempSync(join(tmpdir(), 'dead-letter-')), 'fixed.json');
    writeFileSync(file, JSON.stringify(fixed));
    const replayed = await runOpsCommand(
      'streams',
      ['dead-letters', 'replay', String(nvcfCopy.id), '--data-file', file],
      env,
    );
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toMatch(
      new RegExp(`replayed dead letter ${nvcfCopy.id} \\(the fixed copy\\) as ${Streams.status.name}#\\d+`),
    );
    await waitUntil(async () => (await readSpec(a, d.specId))!.instances[0].state === 'FAILED', {
      what: 'the replayed event applied',
      timeoutMs: 20_000,
    });

    const refused = await runOpsCommand('streams', ['dead-letters', 'purge'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`purge removes ${dead.length - 1} dead letter(s) for good; add --yes`);
    const purged = await runOpsCommand('streams', ['dead-letters', 'purge', '--yes'], env);
    expect(purged.stdout).toContain(`purged ${dead.length - 1} dead letter(s)`);
    expect(await system.backends.bus.deadLetters.list()).toEqual([]);
  }, 120_000);
});
