// Hive Gateway with the Rust query planner, as graphql-gateways-benchmark configures it, minus
// inbound request deduplication (off for everyone in the headline figure).
import { defineConfig } from '@graphql-hive/gateway';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';

export const gatewayConfig = defineConfig({ unifiedGraphHandler, logging: 'error' });
