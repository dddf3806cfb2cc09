#!/usr/bin/env node
// The container image's entrypoint: `node bin/nvcf.js <service> [arguments…]` runs one built main.
// Plain JavaScript on purpose: production has no TypeScript (see Dockerfile, test/e2e/image.real.test.ts).
import { fileURLToPath } from 'node:url';

const mains = {
  gateway: 'gateway/dist/main.js',
  nvcf: 'subgraphs/nvcf/dist/main.js',
  icms: 'subgraphs/icms/dist/main.js',
  'nvca-status': 'subgraphs/nvca-status/dist/main.js',
  nvct: 'subgraphs/nvct/dist/main.js',
  agent: 'agent/dist/main.js',
  'nvca-webhook': 'webhook/dist/main.js',
  migrate: 'lib/cassandra/dist/migrate-main.js',
  probe: 'ops/dist/probe-main.js',
  preflight: 'ops/dist/preflight-main.js',
  streams: 'ops/dist/streams-main.js',
  backup: 'ops/dist/backup-main.js',
  restore: 'ops/dist/restore-main.js',
};

const [name = '', ...args] = process.argv.slice(2);
if (!Object.hasOwn(mains, name)) {
  console.error(`usage: nvcf <${Object.keys(mains).join('|')}> [arguments]${name ? ` (got '${name}')` : ''}`);
  process.exit(2);
}
const main = new URL(`../${mains[name]}`, import.meta.url);
// the service sees the argv it would see as `node <main> …`
process.argv.splice(1, process.argv.length - 1, fileURLToPath(main), ...args);
await import(main.href);
