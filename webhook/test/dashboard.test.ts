/**
 * The Grafana dashboard (deploy/grafana) queries the webhook's families by name; the tracing test
 * checks the control plane's, whose topology has no webhook. This checks the webhook's: every
 * nvca_webhook_* family the dashboard queries is one the webhook's /metrics renders.
 */
import { metrics } from '@nvcf/telemetry';
import { dashboardFamilies, exportedFamilies } from '@nvcf/testing';
import '../src/metrics.js';

describe("the Grafana dashboard and the webhook's metrics", () => {
  it('queries admissions by result and their latency, and only families the webhook exports', () => {
    const queried = dashboardFamilies('nvca_webhook_');
    expect(queried).toEqual(['nvca_webhook_admission_seconds', 'nvca_webhook_admissions_total']);
    const exported = exportedFamilies(metrics().render());
    expect(queried.filter((m) => !exported.has(m))).toEqual([]);
  });
});
