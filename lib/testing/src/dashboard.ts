import { readFileSync } from 'node:fs';

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
}

/**
 * The metric families the Grafana dashboard (deploy/grafana) queries whose names start with
 * `prefix`, histogram suffixes folded into their family: each service's test checks that its
 * /metrics exports them.
 */
export function dashboardFamilies(prefix: string): string[] {
  const dashboard = JSON.parse(
    readFileSync(new URL('../../../deploy/grafana/nvcf-control-plane.json', import.meta.url), 'utf8'),
  ) as Dashboard;
  const pattern = new RegExp(`\\b${prefix}[a-z_]+`, 'g');
  const queried = dashboard.panels
    .flatMap((p) => p.targets ?? [])
    .flatMap((t) => [...t.expr.matchAll(pattern)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')));
  return [...new Set(queried)].sort();
}

/** The families a Prometheus text page declares (`# TYPE name kind`). */
export const exportedFamilies = (text: string): Set<string> =>
  new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
