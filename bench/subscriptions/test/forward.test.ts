import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { staticTokens, DEV_TOKENS } from '@nvcf/auth';
import { DisposalStack } from '@nvcf/lifecycle';
import { startSystem } from '@nvcf/local';
import { waitUntil } from '@nvcf/testing';
import {
  httpClient,
  ok,
  deployedHelm,
  expectRolledOver,
  submit,
  waitRevision,
  wsSubscribe,
  type WatchedStatus,
} from '@nvcf/test';
import { startForwardingGateway } from '../forward/gateway.js';

// snapshot: true first sends every instance's current state, so the subscriber knows it is live
// before the rollout it watches starts
const WATCH = parse(`subscription WatchRollout($spec: ID!) {
  instanceStatusChanged(gpuSpecificationId: $spec, snapshot: true) {
    kind state revisionId targetRevisionId instance { id revisionId targetRevisionId }
  }
}`) as TypedDocumentNode<WatchedStatus, { spec: string }>;

// The baseline's numbers mean something only if it delivers what the gateway's own path does:
// the same transitions, with the target revision resolved through nvca-status and the query plan.
describe('the forwarding baseline (Hive runtime forwarding to nvca-status)', () => {
  it('delivers a rollout: UPDATING to the new revision, then ACTIVE on it', async () => {
    await using stack = new DisposalStack();
    const verify = staticTokens(DEV_TOKENS);
    // a longer deadline than the suites' fast one: a system that just started may take more
    // than a few seconds for its first deployment, which this test does not measure
    const system = stack.use(
      await startSystem({
        verify,
        sim: { startDelayMs: 20, updateDelayMs: 20 },
        agentBackoff: { initialMs: 20, maxMs: 100, factor: 2 },
        revisionDeadlineMs: 30_000,
        deadlineSweepMs: 100,
      }),
    );
    const forward = stack.use(
      await startForwardingGateway({ subgraphs: system.subgraphs, secret: system.secret, verify }),
    );
    const a = httpClient(system.url, 'dev-token-a');
    const d = await deployedHelm(a, { minInstances: 3, maxInstances: 3 });

    await using ws = wsSubscribe(forward.wsUrl, 'dev-token-a', WATCH, { spec: d.specId });
    await ws.until(
      (e) => e.filter((x) => x.instanceStatusChanged.kind === 'SNAPSHOT').length === 3,
      'the snapshot of every instance',
    );
    const r2 = ok(await submit(a, d.specId, { model: 'v2' })).updateGpuSpecification.latestRevision!;
    await waitRevision(a, d.specId, 'APPLIED');

    await expectRolledOver(ws, d.instanceIds, d.firstRevisionId, r2.id);
  });

  it('refuses a connection without a token it accepts', async () => {
    await using stack = new DisposalStack();
    const system = stack.use(await startSystem());
    const forward = stack.use(
      await startForwardingGateway({
        subgraphs: system.subgraphs,
        secret: system.secret,
        verify: staticTokens(DEV_TOKENS),
      }),
    );
    await using ws = wsSubscribe(forward.wsUrl, 'not-a-token', WATCH, { spec: 'any' });
    await waitUntil(() => ws.errors.length > 0, { what: 'the refusal' });
    // graphql-ws's close for a connection_init its onConnect refused
    expect(ws.errors).toEqual(['Forbidden']);
    expect(ws.events).toEqual([]);
  });
});
