import {
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type StreamInfo,
} from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { natsStreamConfig, streamConfigDifferences, type StreamConfigDifference, type StreamSpec } from '@nvcf/bus';
import type { PreflightCheck } from './preflight.js';

export interface NatsCheckOptions {
  natsUrl: string;
  streams: StreamSpec[];
  /** compare num_replicas only when the deployment says what it runs with */
  streamReplicas?: number;
  timeoutMs: number;
}

const LISTED = 10;

const show = (d: StreamConfigDifference) => {
  const v = (x: unknown) => (Array.isArray(x) ? x.join(',') : String(x));
  const nanosField = d.field === 'max_age' || d.field === 'duplicate_window';
  const fmt = (x: unknown) => (nanosField && typeof x === 'number' ? `${x / 1_000_000} ms` : v(x));
  return `${d.field} is ${fmt(d.have)}, expected ${fmt(d.want)}`;
};

const isNotFound = (err: unknown) => err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound;

function configCheck(spec: StreamSpec, info: StreamInfo | undefined, replicas: number | undefined): PreflightCheck {
  const check = `stream ${spec.name}`;
  if (!info)
    return {
      check,
      status: 'FAIL',
      detail: 'missing: a service of this release creates it on start; until then nothing can publish to it',
    };
  const want = natsStreamConfig(spec, replicas ?? info.config.num_replicas);
  const diffs = streamConfigDifferences(info.config, want);
  if (diffs.length) return { check, status: 'FAIL', detail: diffs.map(show).join('; ') };
  return {
    check,
    status: 'OK',
    detail: `${spec.subjects.join(',')} ${spec.retention}, ${info.state.messages} message(s), ${info.config.num_replicas} replica(s)`,
  };
}

async function drainCheck(jsm: JetStreamManager, spec: StreamSpec, info: StreamInfo): Promise<PreflightCheck> {
  const check = `drained ${spec.name}`;
  if (info.state.messages === 0) return { check, status: 'OK', detail: 'nothing pending' };
  const subjects = Object.entries(info.state.subjects ?? {}).sort(([, a], [, b]) => b - a);
  const bySubject =
    subjects
      .slice(0, LISTED)
      .map(([s, n]) => `${s}=${n}`)
      .join(', ') + (subjects.length > LISTED ? `, ${subjects.length - LISTED} more subject(s)` : '');
  const consumers: string[] = [];
  for await (const ci of jsm.consumers.list(spec.name)) {
    if (ci.num_pending + ci.num_ack_pending > 0)
      consumers.push(`${ci.name} ${ci.num_pending} undelivered, ${ci.num_ack_pending} unacknowledged`);
  }
  const who = consumers.length ? `; consumers: ${consumers.join(', ')}` : '; no consumer is reading them';
  return { check, status: 'FAIL', detail: `${info.state.messages} pending: ${bySubject}${who}` };
}

/** Every stream of this release with the configuration it sets; work queues empty. */
export async function natsChecks(o: NatsCheckOptions): Promise<PreflightCheck[]> {
  let nc;
  try {
    nc = await connect({
      servers: o.natsUrl
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      name: 'nvcf-preflight',
      timeout: o.timeoutMs,
      reconnect: false,
    });
  } catch (err) {
    return [{ check: 'nats', status: 'FAIL', detail: `cannot connect to ${o.natsUrl}: ${(err as Error).message}` }];
  }
  try {
    let jsm: JetStreamManager;
    try {
      jsm = await jetstreamManager(nc, { timeout: o.timeoutMs });
    } catch (err) {
      return [
        { check: 'nats', status: 'FAIL', detail: `${o.natsUrl} does not offer JetStream: ${(err as Error).message}` },
      ];
    }
    const checks: PreflightCheck[] = [{ check: 'nats', status: 'OK', detail: `connected to ${nc.getServer()}` }];
    for (const spec of o.streams) {
      const workqueue = spec.retention === 'workqueue';
      const info = await jsm.streams.info(spec.name, workqueue ? { subjects_filter: '>' } : undefined).catch((err) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      checks.push(configCheck(spec, info, o.streamReplicas));
      if (workqueue && info) checks.push(await drainCheck(jsm, spec, info));
    }
    return checks;
  } catch (err) {
    return [{ check: 'nats', status: 'FAIL', detail: `reading the streams failed: ${(err as Error).message}` }];
  } finally {
    await nc.close();
  }
}
