import { fileURLToPath } from 'node:url';
import { type StreamSpec } from '@nvcf/bus';
import { allStreams } from '@nvcf/contracts';
import { renderTable } from './cli.js';
import { ledgerChecks } from './preflight-cassandra.js';
import { natsChecks } from './preflight-nats.js';

export type CheckStatus = 'OK' | 'WARN' | 'FAIL';

export interface PreflightCheck {
  check: string;
  status: CheckStatus;
  detail: string;
}

export interface PreflightResult {
  /** no check failed (warnings pass) */
  ok: boolean;
  checks: PreflightCheck[];
}

export interface PreflightOptions {
  natsUrl: string;
  contactPoints: string[];
  localDataCenter: string;
  /** the keyspaces are `<folder><suffix>` (isolated copies sharing one cluster) */
  keyspaceSuffix?: string;
  /** this release's migrations, one folder per keyspace (default: deploy/migrations) */
  migrationsDir?: string;
  ledgerKeyspace?: string;
  /** the streams this release expects (default: allStreams) */
  streams?: StreamSpec[];
  /** what the deployment runs its streams with; unset: replicas are not compared */
  streamReplicas?: number;
  /** connecting to NATS (default 5 s) */
  timeoutMs?: number;
}

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../deploy/migrations', import.meta.url));

/**
 * Before an upgrade: do NATS and Cassandra hold what this release expects? Streams with the
 * configuration its code sets, work queues drained, every migration ledger clean and at the
 * version of its newest file. Reads only; never creates or repairs anything.
 */
export async function runPreflight(o: PreflightOptions): Promise<PreflightResult> {
  const [nats, cassandra] = await Promise.all([
    natsChecks({
      natsUrl: o.natsUrl,
      streams: o.streams ?? allStreams,
      streamReplicas: o.streamReplicas,
      timeoutMs: o.timeoutMs ?? 5000,
    }),
    ledgerChecks({
      contactPoints: o.contactPoints,
      localDataCenter: o.localDataCenter,
      keyspaceSuffix: o.keyspaceSuffix,
      migrationsDir: o.migrationsDir ?? DEFAULT_MIGRATIONS_DIR,
      ledgerKeyspace: o.ledgerKeyspace,
    }),
  ]);
  const checks = [...nats, ...cassandra];
  return { ok: checks.every((c) => c.status !== 'FAIL'), checks };
}

export function formatPreflight(r: PreflightResult): string {
  const table = renderTable(
    ['check', 'status', 'detail'],
    r.checks.map((c) => [c.check, c.status, c.detail]),
  );
  const failed = r.checks.filter((c) => c.status === 'FAIL').length;
  return `${table}\n\n${r.ok ? 'preflight passed' : `preflight FAILED: ${failed} check(s)`}`;
}
