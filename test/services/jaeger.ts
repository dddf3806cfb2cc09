/**
 * Jaeger (v2, the OpenTelemetry-collector-based `cmd/jaeger`): built once from its Go module
 * into .cache/bin, run all-in-one with in-memory storage, OTLP in on loopback ports, the query
 * API and UI on another. `services:up -- tracing` runs one for a person; the tracing test runs its own.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ServiceStartError } from './errors.js';
import { ephemeralPort, LOOPBACK, pickPort } from './ports.js';
import { isAlive, log, runCommand, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import { type ServicePaths, writePid } from './state.js';

/** Pinned Jaeger release (its Go module is served by the Go module proxy). */
export const JAEGER_VERSION = 'v1.76.0';
const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
const START_TIMEOUT_MS = 60_000;

export const jaegerBinary = (p: ServicePaths) => path.join(p.binDir, 'jaeger');
/** `jaeger version` of a build from the module cache carries no version: a stamp file beside it does. */
const stampFile = (p: ServicePaths) => path.join(p.binDir, 'jaeger.version');
export const jaegerLogFile = (p: ServicePaths) => path.join(p.logsDir, 'jaeger.log');
export const isOurJaeger = (p: ServicePaths, cmdline: string) => cmdline.startsWith(jaegerBinary(p));

/**
 * Builds the pinned Jaeger into .cache/bin unless that version is there. Its go.mod has replace
 * directives, so `go install module@version` refuses it: the module is downloaded and built as
 * the main module, with exactly its own go.mod and go.sum.
 */
export async function ensureJaeger(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<string> {
  const bin = jaegerBinary(p);
  const stamp = fs.existsSync(stampFile(p)) ? fs.readFileSync(stampFile(p), 'utf8').trim() : '';
  if (stamp === JAEGER_VERSION && fs.existsSync(bin)) return bin;
  log(`building jaeger ${JAEGER_VERSION} from its Go module (first run only; minutes on 2 cores)...`);
  const t0 = Date.now();
  const goEnv = { ...env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `${JAEGER_MODULE}@${JAEGER_VERSION}`], {
      cwd: p.root,
      env: goEnv,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    }),
  ) as { Dir?: string; Error?: string };
  if (!info.Dir)
    throw new ServiceStartError(
      `go mod download ${JAEGER_MODULE}@${JAEGER_VERSION} failed: ${info.Error ?? 'no directory'}`,
    );
  fs.mkdirSync(p.binDir, { recursive: true });
  const tmp = `${bin}.tmp-${process.pid}`;
  await runCommand('go', ['build', '-trimpath', '-o', tmp, './cmd/jaeger'], { cwd: info.Dir, env: goEnv });
  fs.renameSync(tmp, bin);
  fs.writeFileSync(stampFile(p), `${JAEGER_VERSION}\n`);
  log(`jaeger ${JAEGER_VERSION} built in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return bin;
}

/** The all-in-one configuration: OTLP gRPC and HTTP in, memory storage, the query API/UI, on loopback ports. */
export function jaegerConfig(ports: { otlpGrpc: number; otlpHttp: number; query: number; queryGrpc: number }): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    resource:
      service.name: jaeger
    metrics:
      level: none
    logs:
      level: info
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: ${LOOPBACK}:${ports.query}
    grpc:
      endpoint: ${LOOPBACK}:${ports.queryGrpc}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: ${LOOPBACK}:${ports.otlpGrpc}
      http:
        endpoint: ${LOOPBACK}:${ports.otlpHttp}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

/** GET <queryUrl>/api/services answers 200 (storage and query are up). */
export async function jaegerHealthy(queryUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${queryUrl}/api/services`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export interface JaegerEnv {
  /** what services export to (OTLP over HTTP/protobuf) */
  OTEL_EXPORTER_OTLP_ENDPOINT: string;
  OTEL_EXPORTER_OTLP_PROTOCOL: string;
  /** the query API and UI */
  JAEGER_QUERY_URL: string;
}

export interface RunningJaeger {
  pid: number;
  env: JaegerEnv;
  stop(): Promise<void>;
}

/** Starts a Jaeger on free ports with its config and log in `dir`; waits for the query API. */
export async function launchJaeger(
  p: ServicePaths,
  env: NodeJS.ProcessEnv,
  dir: string,
  logFile: string,
  opts: { ephemeral?: boolean } = {},
): Promise<RunningJaeger> {
  const bin = await ensureJaeger(p, env);
  const taken = new Set<number>();
  const port = async (preferred: number) => {
    if (!opts.ephemeral) return pickPort(preferred, taken);
    let q: number;
    do q = await ephemeralPort();
    while (taken.has(q));
    taken.add(q);
    return q;
  };
  const ports = {
    otlpHttp: await port(14318),
    otlpGrpc: await port(14317),
    query: await port(16686),
    queryGrpc: await port(16685),
  };
  fs.mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'jaeger.yaml');
  fs.writeFileSync(config, jaegerConfig(ports));
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.appendFileSync(logFile, `\n=== services: starting jaeger ${new Date().toISOString()} ===\n`);
  const pid = spawnDetached(bin, ['--config', config], {
    cwd: dir,
    env: { PATH: env.PATH ?? '', HOME: env.HOME ?? '/tmp' },
    logFile,
  });
  const jenv: JaegerEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://${LOOPBACK}:${ports.otlpHttp}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    JAEGER_QUERY_URL: `http://${LOOPBACK}:${ports.query}`,
  };
  log(`jaeger pid ${pid}: OTLP ${jenv.OTEL_EXPORTER_OTLP_ENDPOINT}, UI ${jenv.JAEGER_QUERY_URL}; waiting for it...`);
  const outcome = await waitUntil(() => jaegerHealthy(jenv.JAEGER_QUERY_URL), {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 200,
    exited: () => !isAlive(pid),
  });
  if (outcome !== 'ready') {
    await stopProcess(pid, 5000);
    throw new ServiceStartError(
      `jaeger ${outcome === 'exited' ? 'exited during startup' : `not ready after ${START_TIMEOUT_MS / 1000}s`}; last lines of ${logFile}:\n${tailFile(logFile, 40)}`,
    );
  }
  return {
    pid,
    env: jenv,
    stop: async () => {
      await stopProcess(pid, 5000);
    },
  };
}

/** `services:up -- tracing`: a Jaeger recorded in .services/pids like nats-server. */
export async function startJaeger(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<{ pid: number; env: JaegerEnv }> {
  const j = await launchJaeger(p, env, path.join(p.servicesDir, 'jaeger'), jaegerLogFile(p));
  writePid(p, 'tracing', j.pid, { ...j.env });
  return { pid: j.pid, env: j.env };
}
