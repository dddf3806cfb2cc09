/**
 * npm run test:chaos -- [--minutes N] [--seed S] [--record]: a chaos run on the 3-node NATS
 * cluster and Cassandra ring (started unless running, stopped after if this started it); prints
 * the result and exits 1 on any violation. --record also writes bench/results/chaos.json and the
 * chaos section of bench/RESULTS.md. `.ci/run` runs 3 minutes of it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderChaosSection } from '../../bench/chaos/report.js';
import { runClusterScript } from '../cluster/global-setup.js';
import { runChaos } from './run.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    seed: { type: 'string' },
    record: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) {
  console.error(`--minutes must be a positive number (got ${values.minutes})`);
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../..');
Object.assign(
  process.env,
  JSON.parse(await runClusterScript(root, ['up', String(process.pid)])) as Record<string, string>,
);
try {
  const result = await runChaos({ minutes, seed: values.seed === undefined ? undefined : Number(values.seed) });
  console.log(
    JSON.stringify(
      {
        ...result,
        rss: result.rss.filter((r) => r.slope_mb_per_h !== null),
        faults: { ...result.faults, records: undefined },
      },
      null,
      2,
    ),
  );
  if (values.record) {
    writeFileSync(path.join(root, 'bench/results/chaos.json'), JSON.stringify(result, null, 2) + '\n');
    const md = path.join(root, 'bench/RESULTS.md');
    writeFileSync(md, renderChaosSection(readFileSync(md, 'utf8'), result));
    console.log('test:chaos: wrote bench/results/chaos.json and the chaos section of bench/RESULTS.md');
  }
  process.exitCode = result.violations.length ? 1 : 0;
} finally {
  await runClusterScript(root, ['down', String(process.pid)]);
}
process.exit(process.exitCode ?? 0);
