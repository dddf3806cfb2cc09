import { fail } from '@nvcf/errors';
import type { JsonObject, VersionRecord } from './model.js';

/**
 * Helm values keys that restate the worker sidecar contract. A revision may repeat the
 * current value; changing it needs a new function version (rule 4).
 */
const contractKeys: Record<string, (v: VersionRecord) => unknown> = {
  serviceName: (v) => v.helmChartServiceName,
  helmChartServiceName: (v) => v.helmChartServiceName,
  servicePort: (v) => v.inferencePort,
  inferencePort: (v) => v.inferencePort,
  inferenceUrl: (v) => v.inferenceUrl,
  health: (v) => v.health,
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function checkSidecarContract(version: VersionRecord, configuration: JsonObject) {
  for (const [key, current] of Object.entries(contractKeys)) {
    if (key in configuration && !same(configuration[key], current(version))) {
      throw fail(
        'REDEPLOY_REQUIRED',
        `configuration.${key} would change the worker sidecar contract (service name, port, health) from ${JSON.stringify(current(version) ?? null)} to ${JSON.stringify(configuration[key])}; create and deploy a new function version instead`,
        { field: `configuration.${key}` },
      );
    }
  }
}
