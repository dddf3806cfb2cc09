import { ValueType } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  PeriodicExportingMetricReader,
  type MetricData,
  type MetricProducer,
  type MetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { emptyResource } from '@opentelemetry/resources';
import type { Registry, Snapshot } from './index.js';

type HrTime = [number, number];
const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/**
 * The registry /metrics renders, as OTLP metric data: counters are cumulative monotonic sums,
 * gauges gauges, histograms explicit-bucket histograms (OTLP counts per bucket, where the
 * Prometheus registry keeps them cumulative).
 */
export function toMetricData(snapshots: Snapshot[], startMs: number, nowMs: number): MetricData[] {
  const startTime = hr(startMs);
  const endTime = hr(nowMs);
  return snapshots.map((f): MetricData => {
    const descriptor = {
      name: f.name,
      description: f.help,
      unit: f.name.endsWith('_seconds') ? 's' : f.name.endsWith('_bytes') ? 'By' : '',
      valueType: ValueType.DOUBLE,
    };
    if (f.type === 'histogram') {
      return {
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints: f.points.map((p) => ({
          startTime,
          endTime,
          attributes: p.labels,
          value: {
            buckets: {
              boundaries: f.buckets,
              counts: [...p.cumulative, p.count].map((c, i, all) => c - (i ? all[i - 1] : 0)),
            },
            sum: p.sum,
            count: p.count,
          },
        })),
      };
    }
    const dataPoints = f.points.map((p) => ({ startTime, endTime, attributes: p.labels, value: p.value }));
    return f.type === 'counter'
      ? {
          descriptor,
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.SUM,
          isMonotonic: true,
          dataPoints,
        }
      : {
          descriptor,
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.GAUGE,
          dataPoints,
        };
  });
}

/** Hands the registry to a metric reader at each collection (the SDK adds its resource: service.name…). */
export function registryProducer(registry: Registry): MetricProducer {
  const startMs = Date.now();
  return {
    collect: async () => ({
      resourceMetrics: {
        resource: emptyResource(),
        scopeMetrics: [{ scope: { name: 'nvcf' }, metrics: toMetricData(registry.snapshot(), startMs, Date.now()) }],
      },
      errors: [],
    }),
  };
}

/** The OTLP exporter the standard variables ask for: http/protobuf (the default), http/json or grpc. */
async function exporterFor(env: NodeJS.ProcessEnv): Promise<PushMetricExporter> {
  const protocol = env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter();
  if (protocol === 'grpc') return new (await import('@opentelemetry/exporter-metrics-otlp-grpc')).OTLPMetricExporter();
  return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter();
}

/** A periodic reader (OTEL_METRIC_EXPORT_INTERVAL, default 60 s) exporting the registry over OTLP. */
export async function registryMetricReader(registry: Registry, env: NodeJS.ProcessEnv): Promise<MetricReader> {
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return new PeriodicExportingMetricReader({
    exporter: await exporterFor(env),
    metricProducers: [registryProducer(registry)],
    ...(Number.isFinite(interval) && interval > 0
      ? { exportIntervalMillis: interval, exportTimeoutMillis: Math.min(30_000, interval) }
      : {}),
  });
}
