// Our gateway as a process of its own: tsx --conditions=source bench/queries/gateways/ours.ts <supergraph file> <port>
import { readFileSync } from 'node:fs';
import { startTelemetry } from '@nvcf/telemetry';
import { startOurGateway } from '../our-gateway.js';

const [file, port] = process.argv.slice(2);
// tracing on when OTEL_EXPORTER_OTLP_ENDPOINT is set, as in the gateway's own main
await startTelemetry('gateway');
const gateway = await startOurGateway(readFileSync(file, 'utf8'), Number(port));
console.log(`gateway ready ${gateway.graphqlUrl}`);
process.on('SIGTERM', () => void gateway.dispose().then(() => process.exit(0)));
