/** Cassandra 5.0: resolve jars once from Maven Central into .cache, run a detached single node. */
import fs from 'node:fs';
import path from 'node:path';
import { cassandraJvmArgs, cassandraYaml, type CassandraLayout, logbackXml } from './cassandra-config.js';
import { cqlLocalDc, cqlSupported } from './cql.js';
import { ServiceProvisionError, ServiceStartError } from './errors.js';
import { LOOPBACK, pickPort } from './ports.js';
import { isAlive, log, runCommand, spawnDetached, stopProcess, tailFile, waitUntil } from './process.js';
import { removePid, type ServicePaths, writePid } from './state.js';

/** Pinned cassandra-all release; deploy/services/cassandra/pom.xml receives it via -Dcassandra.version. */
export const CASSANDRA_VERSION = '5.0.9';
const PREFERRED_NATIVE_PORT = 19042;
const PREFERRED_STORAGE_PORT = 17000;
const START_TIMEOUT_MS = 180_000;
const MARKER = '.complete';
const MAIN_CLASS = 'org.apache.cassandra.service.CassandraDaemon';

export const cassandraLogFile = (p: ServicePaths) => path.join(p.logsDir, 'cassandra.log');
const stdoutLogFile = (p: ServicePaths) => path.join(p.logsDir, 'cassandra.stdout.log');

/** True when a command line is a Cassandra we started with our storage dir. */
export const isOurCassandra = (p: ServicePaths, cmdline: string) =>
  cmdline.includes(MAIN_CLASS) && cmdline.includes(`-Dcassandra.storagedir=${p.cassandraHome}`);

function libComplete(lib: string): boolean {
  try {
    return (
      fs.readFileSync(path.join(lib, MARKER), 'utf8').trim() === CASSANDRA_VERSION &&
      fs.existsSync(path.join(lib, `cassandra-all-${CASSANDRA_VERSION}.jar`))
    );
  } catch {
    return false;
  }
}

/** Copies cassandra-all and its runtime dependencies into .cache/cassandra/lib (once per version). */
export async function ensureCassandraLib(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<string> {
  const lib = p.cassandraLib;
  if (libComplete(lib)) return lib;
  log(`resolving cassandra-all ${CASSANDRA_VERSION} and dependencies with Maven (first run only, ~70 MB)...`);
  const t0 = Date.now();
  const tmp = `${lib}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const args = ['-B', '-q', '-Dstyle.color=never', '-f', p.cassandraPom, 'dependency:copy-dependencies'];
  args.push(`-DoutputDirectory=${tmp}`, `-Dcassandra.version=${CASSANDRA_VERSION}`);
  try {
    await runCommand('mvn', args, { cwd: p.root, env });
    if (!fs.existsSync(path.join(tmp, `cassandra-all-${CASSANDRA_VERSION}.jar`)))
      throw new ServiceProvisionError(`mvn succeeded but cassandra-all-${CASSANDRA_VERSION}.jar is missing`);
    fs.writeFileSync(path.join(tmp, MARKER), `${CASSANDRA_VERSION}\n`);
    fs.rmSync(lib, { recursive: true, force: true });
    fs.renameSync(tmp, lib);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err instanceof ServiceProvisionError
      ? err
      : new ServiceProvisionError('resolving Cassandra jars failed', { cause: err });
  }
  log(`cassandra jars ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return lib;
}

export interface StartedCassandra {
  pid: number;
  env: { CASSANDRA_CONTACT_POINTS: string; CASSANDRA_LOCAL_DC: string };
}

function writeConfig(p: ServicePaths, nativePort: number, storagePort: number): CassandraLayout {
  const home = p.cassandraHome;
  const layout: CassandraLayout = {
    home,
    confDir: path.join(home, 'conf'),
    logFile: cassandraLogFile(p),
    errorFile: path.join(p.logsDir, 'cassandra-hs_err_%p.log'),
    nativePort,
    storagePort,
  };
  for (const d of ['conf', 'data', 'commitlog', 'hints', 'saved_caches', 'cdc_raw', 'triggers'])
    fs.mkdirSync(path.join(home, d), { recursive: true });
  fs.writeFileSync(path.join(layout.confDir, 'cassandra.yaml'), cassandraYaml(layout));
  fs.writeFileSync(path.join(layout.confDir, 'logback.xml'), logbackXml(layout.logFile));
  return layout;
}

function failureReport(p: ServicePaths): string {
  const out = tailFile(stdoutLogFile(p), 20);
  return (
    `last lines of ${cassandraLogFile(p)}:\n${tailFile(cassandraLogFile(p), 50)}` +
    (out ? `\nlast lines of ${stdoutLogFile(p)}:\n${out}` : '')
  );
}

/** Starts Cassandra with `java` (Java 17) and waits until the CQL protocol answers OPTIONS. */
export async function startCassandra(p: ServicePaths, env: NodeJS.ProcessEnv): Promise<StartedCassandra> {
  const lib = await ensureCassandraLib(p, env);
  const taken = new Set<number>();
  const nativePort = await pickPort(PREFERRED_NATIVE_PORT, taken);
  const storagePort = await pickPort(PREFERRED_STORAGE_PORT, taken);
  const layout = writeConfig(p, nativePort, storagePort);
  const jamm = fs.readdirSync(lib).find((f) => /^jamm-.*\.jar$/.test(f));
  const args = cassandraJvmArgs(layout, lib, jamm && path.join(lib, jamm));
  const java = env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : 'java';
  const marker = `\n=== services: starting cassandra ${new Date().toISOString()} ===\n`;
  fs.appendFileSync(layout.logFile, marker);
  fs.appendFileSync(stdoutLogFile(p), marker);
  const pid = spawnDetached(java, args, { cwd: layout.home, env, logFile: stdoutLogFile(p) });
  const contactPoints = `${LOOPBACK}:${nativePort}`;
  writePid(p, 'cassandra', pid, { CASSANDRA_CONTACT_POINTS: contactPoints });
  log(`cassandra pid ${pid} on ${LOOPBACK}:${nativePort} (storage ${storagePort}), waiting for CQL...`);
  const t0 = Date.now();
  const outcome = await waitUntil(() => cqlSupported(LOOPBACK, nativePort), {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 1000,
    exited: () => !isAlive(pid),
  });
  if (outcome !== 'ready') {
    await stopProcess(pid, 10_000);
    removePid(p, 'cassandra');
    const why =
      outcome === 'exited' ? 'exited during startup' : `did not answer CQL within ${START_TIMEOUT_MS / 1000}s`;
    throw new ServiceStartError(`cassandra ${why}; ${failureReport(p)}`);
  }
  const dc = await cqlLocalDc(LOOPBACK, nativePort).catch((err: unknown) => {
    log(`could not read data_center from system.local (${String(err)}); assuming datacenter1`);
    return 'datacenter1';
  });
  log(`cassandra ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (dc ${dc})`);
  const cassEnv = { CASSANDRA_CONTACT_POINTS: contactPoints, CASSANDRA_LOCAL_DC: dc };
  writePid(p, 'cassandra', pid, cassEnv);
  return { pid, env: cassEnv };
}
