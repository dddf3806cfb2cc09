/**
 * Kubernetes API calls are HTTP client spans of the agent's trace (docs/observability.md): exported
 * over OTLP to a receiver in this test, with the method, path and status, and no request body.
 */
import { startOtlpReceiver, type OtlpReceiver } from '@nvcf/testing';
import { startTelemetry, inSpan, type Telemetry } from '@nvcf/telemetry';
import type { KubeClient } from '../src/drivers/kubernetes/index.js';
import { describeKube, sharedClient } from './kube-fixtures.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  parentSpanId?: string;
  spanId: string;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const SPAN_KIND_CLIENT = 3;

describeKube('kubernetes API calls as client spans', () => {
  let receiver: OtlpReceiver;
  let telemetry: Telemetry;
  let client: KubeClient;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // the SDK reads the standard variables from the environment, as a service's process does
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    telemetry = await startTelemetry('agent');
    client = sharedClient();
  });
  afterAll(async () => {
    await telemetry?.shutdown();
    await receiver?.close();
  });

  it('records each call with method, path, server and status, under the span that made it', async () => {
    const name = `spans-${Date.now().toString(36)}`;
    await inSpan('apply helm', {}, async () => {
      await client.apply(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: 'default' },
          data: { secretish: 'value-never-in-a-span' },
        },
        'nvcf-test',
      );
      expect(
        await client.get({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `${name}-missing`, namespace: 'default' },
        }),
      ).toBeNull();
      await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
    });
    await telemetry.shutdown(); // flushes the batch
    const spans = receiver
      .exports<OtlpExport>('/v1/traces')
      .flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));

    const attr = (s: OtlpSpan, key: string) => {
      const v = s.attributes.find((a) => a.key === key)?.value;
      return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : undefined);
    };
    const parent = spans.find((s) => s.name === 'apply helm')!;
    expect(parent).toBeDefined();
    const calls = spans.filter((s) => s.kind === SPAN_KIND_CLIENT && s.parentSpanId === parent.spanId);
    expect(calls.map((s) => [s.name, attr(s, 'http.response.status_code')])).toEqual([
      ['PATCH', 200],
      ['GET', 404],
      ['DELETE', 200],
    ]);
    for (const s of calls) {
      expect(s.traceId).toBe(parent.traceId);
      expect(attr(s, 'http.request.method')).toBe(s.name);
      expect(attr(s, 'url.path')).toMatch(new RegExp(`^/api/v1/namespaces/default/configmaps/${name}`));
      expect(attr(s, 'server.address')).toBe('127.0.0.1');
    }
    expect(receiver.received.map((r) => r.body).join('')).not.toContain('value-never-in-a-span');
  });
});
