/**
 * One trace follows a configuration update through the production topology (each service its
 * own process) into a real Jaeger: the gateway's operation and subgraph fetches, nvcf, its call
 * to ICMS, the publish on NATS and the agent consuming it, the agent's apply and its status
 * publish, nva-status consuming that. The client starts the trace (it sends a traceparent), so
 * the test knows the trace id and asks Jaeger's query API for exactly that trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { print } from 'graphql';
import { UpdateGpuSpecificationDocument } from '@nvcf/client';
import { startTopology, type Topology, type RunMode } from '@nvcf/local/topology';
import { describeReal, topologyEnv, httpClient, deployedHelm, waitRevision } from '@nvcf/test';
import { dashboardFamilies, exportedFamilies, waitUntil } from '@nvcf/testing';
import { ensureJaeger, launchJaeger, type RunningJaeger } from '../services/jaeger.js';
import { servicePaths } from '../services/state.js';

const mode: RunMode = process.env.NVCF_TOPOLOGY_MODE === 'dist' ? 'dist' : 'source';

interface JSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references: { refType: string; spanID: string; traceID: string }[];
  tags: { key: string; value: unknown }[];
  kind?: string;
}
interface JTrace {
  traceID: string;
  spans: JSpan[];
  processes: Record<string, { serviceName: string }>;
}

const tag = (s: JSpan, key: string) => s.tags.find((t) => t.key === key)?.value;
const parentOf = (s: JSpan) => s.references.find((r) => r.refType === 'CHILD_OF')?.spanID;

describeReal('tracing: one trace per configuration update, in Jaeger', () => {
  const suffix = `_trc${randomBytes(3).toString('hex')}`;
  let jaeger: RunningJaeger;
  let topology: Topology;
  let stateDir: string;
  const token = 'dev-token-a';

  // a clean clone builds Jaeger first (go build of cmd/jaeger: about 11 minutes cold on 2 cores, then cached in .cache/bin)
  beforeAll(async () => {
    await ensureJaeger(servicePaths(), process.env);
  }, 1_800_000);

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'nvcf-tracing-'));
    // its own Jaeger on ephemeral ports (the binary is built once into .cache/bin)
    jaeger = await launchJaeger(
      servicePaths(),
      process.env,
      path.join(stateDir, 'jaeger'),
      path.join(stateDir, 'jaeger.log'),
      { ephemeral: true },
    );
    const shared = await topologyEnv(suffix);
    topology = await startTopology({
      mode,
      stateDir,
      clusterSuffix: suffix.replace('_', '-'),
      deploymentSuffix: suffix,
      env: {
        ...shared,
        SIM_START_DELAY_MS: '100',
        SIM_UPDATE_DELAY_MS: '100',
        REVISION_DEADLINE_MS: '120000',
        // the standard variables, nothing of ours: every process names itself (OTEL_SERVICE_NAME unset)
        OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.env.OTEL_EXPORTER_OTLP_ENDPOINT,
        OTEL_EXPORTER_OTLP_PROTOCOL: jaeger.env.OTEL_EXPORTER_OTLP_PROTOCOL,
        OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
      // the gateways log at info: each mutation's audit line
      gatewayEnv: { AUTH_MODE: 'dev', AUTH_TOKENS: 'dev-token-a=nca-a', LOG_LEVEL: 'info' },
    });
  }, 300_000);
  afterAll(async () => {
    await topology?.dispose();
    await jaeger?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('covers gateway, nvcf, icms, both NATS hops, the agent and nvca-status, with correct parents', async () => {
    const gw = `${topology.gateways[0].url}/graphql`;
    const d = await deployedHelm(httpClient(gw, token), { minInstances: 1, maxInstances: 1 });

    // the client's own span: the gateway continues its trace
    const traceId = randomBytes(16).toString('hex');
    const requestId = randomUUID();
    const clientSpan = randomBytes(8).toString('hex');
    const res = await fetch(gw, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${clientSpan}-01`,
        'x-request-id': requestId,
      },
      body: JSON.stringify({
        query: print(UpdateGpuSpecificationDocument),
        variables: {
          id: d.specId,
          input: { revision: { configuration: { model: 'traced', secretish: 'value-that-must-not-leak' } } },
        },
      }),
    });
    const body = (await res.json()) as { errors?: unknown };
    expect(body.errors).toBeUndefined();
    await waitRevision(httpClient(gw, token), d.specId, 'APPLIED', 60_000);

    const wanted = ['gateway', 'nvcf', 'icms', 'agent', 'nvca-status'];
    const fetchTrace = async (): Promise<JTrace | undefined> => {
      const r = await fetch(`${jaeger.env.JAEGER_QUERY_URL}/api/traces/${traceId}`);
      if (r.status !== 200) return undefined;
      return ((await r.json()) as { data: JTrace[] }).data[0];
    };
    const services = (t: JTrace) => new Set(t.spans.map((s) => t.processes[s.processID].serviceName));
    // spans arrive in batches from six processes, a parent after its children (it ends later): wait
    // until every service and both hops are there and no span waits for its parent
    const t = await waitUntil(
      async () => {
        const tr = await fetchTrace();
        if (!tr) return undefined;
        const names = tr.spans.map((s) => s.operationName);
        const ids = new Set(tr.spans.map((s) => s.spanID));
        const complete =
          wanted.every((w) => services(tr).has(w)) &&
          tr.spans.every((s) => ids.has(parentOf(s) ?? '') || parentOf(s) === clientSpan) &&
          names.includes('publish UpdateNvcaInstanceStream') &&
          names.includes('process UpdateNvcaInstanceStream') &&
          names.includes('publish NvcaStatusStream') &&
          names.filter((n) => n === 'process NvcaStatusStream').length >= 1;
        return complete && tr;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: `trace ${traceId} complete in Jaeger` },
    ).catch(async (err: Error) => {
      const tr = await fetchTrace();
      const ids = new Set(tr?.spans.map((s) => s.spanID));
      const orphans = tr?.spans
        .filter((s) => !ids.has(parentOf(s) ?? '') && parentOf(s) !== clientSpan)
        .map((s) => `${tr.processes[s.processID].serviceName}: ${s.operationName} (parent ${parentOf(s)})`);
      throw new Error(
        `${err.message}; have ${tr ? JSON.stringify({ services: [...services(tr)], orphans, spans: tr.spans.map((s) => `${tr.processes[s.processID].serviceName}: ${s.operationName}`) }) : 'no trace'}`,
      );
    });

    const byId = new Map(t.spans.map((s) => [s.spanID, s]));
    const svc = (s: JSpan) => t.processes[s.processID].serviceName;
    // one trace: every span's parent is in it, except the root, whose parent is the client's span
    const roots = t.spans.filter((s) => !byId.has(parentOf(s) ?? ''));
    expect(roots.map((s) => ({ service: svc(s), parent: parentOf(s) }))).toEqual([
      { service: 'gateway', parent: clientSpan },
    ]);
    const ancestors = (s: JSpan) => {
      const out: JSpan[] = [];
      for (let p = byId.get(parentOf(s) ?? ''); p; p = byId.get(parentOf(p) ?? '')) out.push(p);
      return out;
    };
    const one = (service: string, name: string, pred: (s: JSpan) => boolean = () => true) => {
      const found = t.spans.filter((s) => svc(s) === service && s.operationName === name && pred(s));
      expect([service, name, found.length > 0]).toEqual([service, name, true]);
      return found[0];
    };

    // gateway → nvcf: nvcf's server span is a child of a gateway span
    const nvcfServer = one('nvcf', 'POST /graphql', (s) => tag(s, 'graphql.operation.type') === 'mutation');
    expect(svc(byId.get(parentOf(nvcfServer)!)!)).toBe('gateway');
    // nvcf → icms: the RPC's client span in nvcf, icms's server span under it
    const rpc = one('icms', 'POST /internal/rpc/{method}', (s) => tag(s, 'rpc.method') === 'update');
    const rpcClient = byId.get(parentOf(rpc)!)!;
    expect([svc(rpcClient), rpcClient.operationName, ancestors(rpcClient).includes(nvcfServer)]).toEqual([
      'nvcf',
      'POST',
      true,
    ]);
    // the store writes, as client spans of nvcf and icms
    expect(
      t.spans.some(
        (s) =>
          svc(s) === 'nvcf' &&
          /^(INSERT|UPDATE|BATCH) /.test(s.operationName) &&
          tag(s, 'db.system.name') === 'cassandra',
      ),
    ).toBe(true);
    // first hop: icms publishes the update, the agent consumes it as the publish's child
    const publishUpdate = one('icms', 'publish UpdateNvcaInstanceStream');
    expect(ancestors(publishUpdate)).toContain(rpc);
    const consumeUpdate = one('agent', 'process UpdateNvcaInstanceStream');
    expect(parentOf(consumeUpdate)).toBe(publishUpdate.spanID);
    expect(tag(consumeUpdate, 'messaging.system')).toBe('nats');
    // the apply, then the status events it publishes, inside the agent's handling
    const apply = one('agent', 'apply helm');
    expect(ancestors(apply)).toContain(consumeUpdate);
    const publishStatus = one('agent', 'publish NvcaStatusStream');
    expect(ancestors(publishStatus)).toContain(consumeUpdate);
    // second hop: nvca-status consumes a status event as that publish's child
    const consumeStatus = t.spans.filter(
      (s) => svc(s) === 'nvca-status' && s.operationName === 'process NvcaStatusStream',
    );
    expect(consumeStatus.some((s) => byId.get(parentOf(s)!)?.operationName === 'publish NvcaStatusStream')).toBe(true);
    // the tenant is an attribute; no configuration value is anywhere in the trace
    expect(t.spans.some((s) => tag(s, 'nvcf.tenant.id') === 'nca-a')).toBe(true);
    expect(JSON.stringify(t)).not.toContain('value-that-must-not-leak');
    console.log(JSON.stringify({ tracing: { traceId, spans: t.spans.length, services: [...services(t)].sort() } }));

    // the mutation's one audit line (JSON, at info), with its trace id and request id
    const lines = topology.gateways
      .flatMap((g) => g.output().split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const audits = lines.filter((l) => l.audit === true && l.request_id === requestId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      level: 'info',
      tenant: 'nca-a',
      operation: 'UpdateGpuSpecification',
      outcome: 'ok',
      trace_id: traceId,
    });
    expect(typeof audits[0].duration_ms).toBe('number');
    expect((audits[0].ids as Record<string, string[]>).id).toContain(d.specId);
    expect(JSON.stringify(audits[0])).not.toContain('value-that-must-not-leak');
  }, 180_000);

  it('every service exports the metric families on /metrics, and the dashboard queries only exported metrics', async () => {
    const scraped = Object.fromEntries(
      await Promise.all(
        topology.processes().map(async (p) => [p.name, await (await fetch(`${p.metricsUrl}/metrics`)).text()] as const),
      ),
    );
    const want: Record<string, string[]> = {
      gateway: [
        'nvcf_gateway_requests_total',
        'nvcf_gateway_request_errors_total',
        'nvcf_gateway_request_duration_ms',
        'nvcf_gateway_subgraph_request_duration_seconds',
        'nvcf_gateway_subgraph_request_errors_total',
        'nvcf_status_subscriptions_open',
        'nvcf_status_delivery_latency_ms',
      ],
      nvcf: [
        'nvcf_nvcf_requests_total',
        'nvcf_store_query_duration_seconds',
        'nvcf_rollouts_started_total',
        'nvcf_rollouts_finished_total',
        'nvcf_rollout_duration_seconds',
      ],
      icms: ['nvcf_icms_requests_total', 'nvcf_store_query_duration_seconds'],
      'nvca-status': ['nvcf_nvca_status_requests_total', 'nvcf_store_query_duration_seconds'],
      nvct: ['nvcf_nvct_requests_total', 'nvcf_store_query_duration_seconds'],
      agent: ['nvcf_agent_applies_total', 'nvcf_agent_apply_duration_seconds'],
    };
    const bus = [
      'nvcf_bus_published_total',
      'nvcf_bus_consumed_total',
      'nvcf_bus_redeliveries_total',
      'nvcf_bus_consumer_pending',
      'nvcf_bus_handle_duration_seconds',
    ];
    for (const p of topology.processes()) {
      const have = exportedFamilies(scraped[p.name]);
      const missing = [...want[p.kind], ...bus].filter((f) => !have.has(f));
      expect([p.name, missing]).toEqual([p.name, []]);
    }
    // and they count what happened: the rollout above finished, the agents applied, the bus carried it
    const sum = (name: string, match: RegExp = /./) =>
      Object.values(scraped)
        .flatMap((t) => t.split('\n'))
        .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
        .filter((l) => match.test(l))
        .reduce((a, l) => a + Number(l.split(' ').at(-1)), 0);
    expect(sum('nvcf_rollouts_finished_total', /outcome="APPLIED"/)).toBeGreaterThanOrEqual(1);
    expect(sum('nvcf_agent_applies_total', /outcome="ok"/)).toBeGreaterThanOrEqual(2);
    expect(sum('nvcf_bus_consumed_total', /stream="UpdateNvcaInstanceStream".*outcome="ack"/)).toBeGreaterThanOrEqual(
      1,
    );
    expect(sum('nvcf_bus_published_total', /stream="NvcaStatusStream"/)).toBeGreaterThanOrEqual(4);
    expect(sum('nvcf_store_query_duration_seconds_count')).toBeGreaterThan(0);

    const exported = new Set(Object.values(scraped).flatMap((t) => [...exportedFamilies(t)]));
    const queried = new Set(dashboardFamilies('nvcf_'));
    expect(queried.size).toBeGreaterThan(15);
    expect([...queried].filter((m) => !exported.has(m))).toEqual([]);
  }, 60_000);
});
