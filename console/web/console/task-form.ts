import type { CreateTaskInput } from '@nvcf/client';
import type { Parsed } from './editor-model.js';

/** The workloads a task runs, as createFunction takes them (docs/tasks.md): exactly one per task. */
export type Workload = 'container' | 'helm' | 'operator';

export const WORKLOADS: { value: Workload; label: string }[] = [
  { value: 'container', label: 'Container image' },
  { value: 'helm', label: 'Helm chart' },
  { value: 'operator', label: 'Operator manifests' },
];

/** What the form holds for each workload; only the chosen one's fields are sent. */
export interface WorkloadFields {
  image: string;
  /** one argument a line */
  args: string;
  chart: string;
  serviceName: string;
  operatorTypes: string[];
  manifests: Parsed;
}

export type WorkloadInput = Pick<CreateTaskInput, 'container' | 'helm' | 'operator'>;

/**
 * The chosen workload's part of createTask's input, trimmed, or null while it lacks what the API
 * requires (the form keeps Create disabled). The API checks the rest (a chart's URI, a service
 * name's form, the manifests against their types) and its refusal names the field.
 */
export function workloadInput(workload: Workload, f: WorkloadFields): WorkloadInput | null {
  switch (workload) {
    case 'container': {
      const image = f.image.trim();
      const args = f.args
        .split('\n')
        .map((a) => a.trim())
        .filter(Boolean);
      return image ? { container: { image, ...(args.length ? { args } : {}) } } : null;
    }
    case 'helm': {
      const chart = f.chart.trim();
      const serviceName = f.serviceName.trim();
      return chart && serviceName ? { helm: { chart, serviceName } } : null;
    }
    case 'operator':
      return f.operatorTypes.length > 0 && f.manifests.ok
        ? { operator: { operatorTypes: f.operatorTypes, manifests: f.manifests.value as unknown[] } }
        : null;
  }
}
