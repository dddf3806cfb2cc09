// Rollout time alone: npx tsx --conditions=source bench/rollout.ts [--instances 100,1000]   (needs npm run services:up)
import { readServicesEnv } from '@nvcf/test/services';
import { runRollout, type ServicesEnv } from './rollout/run.js';
import { rolloutSummary } from './results.js';
import { mergeSections } from './provenance/latest.js';
import { startRun } from './provenance/run.js';
import { arg } from './cli/args.js';

const sizes = (arg('instances') ?? '100,1000').split(',').map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n > 0))
  throw new Error(`--instances wants whole numbers, comma-separated (got '${arg('instances')}')`);
const env = readServicesEnv() as unknown as ServicesEnv;
const run = startRun();
const results = await runRollout(sizes, env);
console.table(results);
mergeSections({ rollout: { run: run.finish(), ...rolloutSummary(results) } });
process.exit(0);
