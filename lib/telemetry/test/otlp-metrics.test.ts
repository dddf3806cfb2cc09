/**
 * OTEL_METRICS_EXPORTER=otlp: the registry /metrics renders is pushed over OTLP as well, with the
 * service's resource. A receiver in the test takes the OTLP/HTTP JSON exports.
 */
import { startOtlpReceiver, waitUntil, type OtlpReceiver } from '@nvcf/testing';
import { counter, gauge, histogram, metricsRequested, startTelemetry, type Telemetry } from '../src/index.js';
import { toMetricData } from '../src/otlp-metrics.js';

interface OtlpAttr {
  key: string;
  value: { stringValue?: string };
}
interface OtlpPoint {
  attributes: OtlpAttr[];
  asDouble?: number;
  asInt?: string;
  count?: string | number;
  sum?: number;
  bucketCounts?: (string | number)[];
  explicitBounds?: number[];
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints: OtlpPoint[]; isMonotonic: boolean };
  gauge?: { dataPoints: OtlpPoint[] };
  histogram?: { dataPoints: OtlpPoint[] };
}
interface OtlpExport {
  resourceMetrics: { resource: { attributes: OtlpAttr[] }; scopeMetrics: { metrics: OtlpMetric[] }[] }[];
}

describe('metrics over OTLP', () => {
  it('is asked for by OTEL_METRICS_EXPORTER=otlp with an endpoint, and only then', () => {
    expect(
      metricsRequested({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ).toBe(true);
    expect(metricsRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(metricsRequested({ OTEL_METRICS_EXPORTER: 'otlp' })).toBe(false);
    expect(
      metricsRequested({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'x', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
  });

  it('turns cumulative Prometheus buckets into OTLP counts per bucket', () => {
    const [h] = toMetricData(
      [
        {
          name: 'x_seconds',
          help: 'h',
          type: 'histogram',
          buckets: [0.1, 1],
          points: [{ labels: { a: 'b' }, cumulative: [2, 5], sum: 9, count: 7 }],
        },
      ],
      0,
      1000,
    );
    expect(h).toMatchObject({
      descriptor: { name: 'x_seconds', unit: 's' },
      dataPoints: [
        { attributes: { a: 'b' }, value: { buckets: { boundaries: [0.1, 1], counts: [2, 3, 2] }, sum: 9, count: 7 } },
      ],
    });
  });

  describe('pushed to a collector', () => {
    let receiver: OtlpReceiver;
    let telemetry: Telemetry;
    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      Object.assign(process.env, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_METRIC_EXPORT_INTERVAL: '200',
      });
      telemetry = await startTelemetry('otlp-metrics-test');
    });
    afterAll(async () => {
      await telemetry?.shutdown();
      await receiver?.close();
    });

    it('exports counters, gauges and histograms with their labels under the service resource; traces stay off', async () => {
      expect(telemetry.tracing).toBe(false);
      counter('nvcf_test_requests_total', 'requests', ['outcome']).inc({ outcome: 'ok' }, 3);
      gauge('nvcf_test_open', 'open things').set({}, 7);
      const h = histogram('nvcf_test_duration_seconds', 'durations', ['op'], [0.1, 1]);
      for (const v of [0.05, 0.5, 0.5, 2]) h.observe({ op: 'apply' }, v);

      const exports = () => receiver.exports<OtlpExport>('/v1/metrics');
      const metric = (name: string) =>
        exports()
          .flatMap((e) => e.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)))
          .filter((m) => m.name === name)
          .at(-1);
      await waitUntil(() => !!metric('nvcf_test_duration_seconds') && !!metric('nvcf_test_requests_total'), {
        what: 'an export with the test metrics',
        timeoutMs: 10_000,
      });
      const service = exports()
        .at(-1)!
        .resourceMetrics[0].resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
      expect(service).toBe('otlp-metrics-test');

      const c = metric('nvcf_test_requests_total')!;
      expect(c.sum!.isMonotonic).toBe(true);
      expect(c.sum!.dataPoints[0]).toMatchObject({
        attributes: [{ key: 'outcome', value: { stringValue: 'ok' } }],
        asDouble: 3,
      });
      expect(metric('nvcf_test_open')!.gauge!.dataPoints[0].asDouble).toBe(7);
      const p = metric('nvcf_test_duration_seconds')!.histogram!.dataPoints[0];
      expect(p.bucketCounts!.map(Number)).toEqual([1, 2, 1]);
      expect(p.explicitBounds).toEqual([0.1, 1]);
      expect(Number(p.count)).toBe(4);
      expect(p.sum).toBeCloseTo(3.05);
    });
  });
});
