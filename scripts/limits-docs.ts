import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { withInputLimitsSection, withDocSection } from '@nvcf/subgraph-kit';
import { renderGatewayLimitsDocs } from '@nvcf/gateway';

// rewrites the generated sections of docs/limits.md (gateway requests, input values); the others are written by hand
const file = new URL('../docs/limits.md', import.meta.url);
const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
writeFileSync(file, withInputLimitsSection(withDocSection(current, renderGatewayLimitsDocs())));
