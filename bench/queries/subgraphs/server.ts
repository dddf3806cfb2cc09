// The benchmark subgraphs in a process of their own (pinned beside the load, away from the gateway).
// tsx bench/queries/subgraphs/server.ts [port]   prints "subgraphs ready <base url>"
import { startBenchSubgraphs } from './serve.js';

const subgraphs = await startBenchSubgraphs(Number(process.argv[2] ?? 0));
console.log(`subgraphs ready ${subgraphs.base}`);
process.on('SIGTERM', () => void subgraphs.dispose().then(() => process.exit(0)));
