/**
 * Service bookkeeping for one jest run, run under tsx by the jest global setup and teardown
 * (jest loads those as CommonJS, which cannot import these ESM modules).
 *
 *   jest-services.ts up <runPid>    start or reuse NATS and Cassandra (and Kubernetes when
 *                                   NVCF_TEST_KUBERNETES=1), print the env as JSON
 *   jest-services.ts down <runPid>  stop what that run started, unless another live run uses it
 *
 * Each run leaves .services/jest-runs/<runPid>.json: which services it started, which it uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readServicesEnv, servicesDown, servicesUp, type ServiceName } from './index.js';
import { isAlive, log } from './process.js';
import { servicePaths, withLock } from './state.js';

interface RunRecord {
  pid: number;
  /** started by this run (or handed over to it by a run that ended first): this run stops them */
  started: ServiceName[];
  uses: ServiceName[];
}

// Kubernetes costs a one-time build of several minutes: only runs that ask for it start it
const ALL: ServiceName[] =
  process.env.NVCF_TEST_KUBERNETES === '0' ? ['nats', 'cassandra'] : ['nats', 'cassandra', 'kubernetes'];
const p = servicePaths();
const runsDir = path.join(p.servicesDir, 'jest-runs');
// its own lock: servicesUp/servicesDown take up.lock inside it, always in this order
const runsLock = { ...p, lockFile: path.join(p.servicesDir, 'jest-runs.lock') };
const recordFile = (pid: number) => path.join(runsDir, `${pid}.json`);

function readRuns(): RunRecord[] {
  fs.mkdirSync(runsDir, { recursive: true });
  return fs
    .readdirSync(runsDir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      try {
        return [JSON.parse(fs.readFileSync(path.join(runsDir, f), 'utf8')) as RunRecord];
      } catch {
        return [];
      }
    });
}
const writeRun = (r: RunRecord) => fs.writeFileSync(recordFile(r.pid), JSON.stringify(r, null, 2) + '\n');

async function up(pid: number): Promise<void> {
  const started = new Set<ServiceName>();
  let env: Record<string, string> = {};
  let failure: unknown;
  await withLock(runsLock, async () => {
    try {
      env = await servicesUp({ nats: true, cassandra: true, kubernetes: ALL.includes('kubernetes'), started });
    } catch (err) {
      failure = err; // tests needing the missing service fail on their own, with this logged above
      env = readServicesEnv(); // servicesUp records the services that did come up
    }
    // a run that died without its teardown leaves its services to the next run to stop
    for (const dead of readRuns().filter((r) => r.pid !== pid && !isAlive(r.pid))) {
      for (const name of dead.started) started.add(name);
      fs.rmSync(recordFile(dead.pid), { force: true });
    }
    writeRun({ pid, started: [...started], uses: ALL });
  });
  if (failure)
    log(`not every service came up: ${failure instanceof Error ? failure.message : JSON.stringify(failure)}`);
  log(`jest run ${pid}: started ${[...started].join(', ') || 'nothing'} (the rest was already running)`);
  // a Jaeger a person started (services:up -- tracing) is not the tests' trace backend
  process.stdout.write(
    JSON.stringify(
      Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('OTEL_') && k !== 'JAEGER_QUERY_URL')),
    ),
  );
}

async function down(pid: number): Promise<void> {
  await withLock(runsLock, async () => {
    const runs = readRuns();
    const mine = runs.find((r) => r.pid === pid);
    fs.rmSync(recordFile(pid), { force: true });
    if (!mine) return;
    const others = runs.filter((r) => r.pid !== pid && isAlive(r.pid));
    const stop: ServiceName[] = [];
    for (const name of mine.started) {
      const heir = others.find((r) => r.uses.includes(name));
      if (!heir) stop.push(name);
      else {
        // still in use: the run that ends last stops it
        writeRun({ ...heir, started: [...new Set([...heir.started, name])] });
        log(`jest run ${pid}: leaving ${name} to run ${heir.pid}, which still uses it`);
      }
    }
    if (stop.length > 0) await servicesDown({ only: stop });
    log(`jest run ${pid}: stopped ${stop.join(', ') || 'nothing'}`);
  });
}

const [cmd, pidArg] = process.argv.slice(2);
const pid = Number(pidArg);
const run = cmd === 'up' ? up : cmd === 'down' ? down : undefined;
if (!run || !Number.isInteger(pid) || pid <= 0) {
  process.stderr.write('usage: jest-services.ts up|down <jest pid>\n');
  process.exit(2);
}
run(pid).then(
  () => process.exit(0),
  (err: unknown) => {
    const e = err as Error;
    process.stderr.write(`[services] ${e.name ?? 'Error'}: ${e.message ?? String(err)}\n`);
    process.exit(1);
  },
);
