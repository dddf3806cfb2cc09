/**
 * The Grafana dashboard's operator row queries the agent's operator families by name: every
 * nvca_operator_* family it queries is one the agent's /metrics renders.
 */
import { metrics } from '@nvcf/telemetry';
import { dashboardFamilies, exportedFamilies } from '@nvcf/testing';
import '../src/operator-phases.js';

describe("the Grafana dashboard and the agent's operator metrics", () => {
  it('queries phase transitions, install duration and the secondary ready ratio, all exported by the agent', () => {
    const queried = dashboardFamilies('nvca_operator_');
    expect(queried).toEqual([
      'nvca_operator_install_seconds',
      'nvca_operator_phase_transitions_total',
      'nvca_operator_secondary_ready_ratio',
    ]);
    const exported = exportedFamilies(metrics().render());
    expect(queried.filter((m) => !exported.has(m))).toEqual([]);
  });
});
