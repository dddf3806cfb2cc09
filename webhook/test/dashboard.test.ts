/**
 * The Grafana dashboard (deploy/grafana) queries the webhook's families by name; the tracing test
 * checks the control plane's, whose topology has no webhook. This checks the webhook's: every
 * nvca_webhook_* family the dashboard queries is one the webhook's /metrics renders.
 */
import { readFileSync } from 'node:fs';
import { metrics } from '@nvcf/telemetry';
import '../src/metrics.js';

const dashboard = JSON.parse(
  readFileSync(new URL('../../deploy/grafana/nvcf-control-plane.json', import.meta.url), 'utf8'),
) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};

describe("the Grafana dashboard and the webhook's metrics", () => {
  it('queries admissions by result and their latency, and only families the webhook exports', () => {
    const exported = new Set(
      [
        ...metrics()
          .render()
          .matchAll(/^# TYPE (\S+) /gm),
      ].map((m) => m[1]),
    );
    const queried = new Set(
      dashboard.panels
        .flatMap((p) => p.targets ?? [])
        .flatMap((t) =>
          [...t.expr.matchAll(/\bnvca_webhook_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')),
        ),
    );
    expect([...queried].sort()).toEqual(['nvca_webhook_admission_seconds', 'nvca_webhook_admissions_total']);
    expect([...queried].filter((m) => !exported.has(m))).toEqual([]);
  });
});
