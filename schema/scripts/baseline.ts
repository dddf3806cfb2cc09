// npm run schema:baseline: the current schema becomes the baseline of `npm run schema:check` (docs/schema.md).
import { relative } from 'node:path';
import { writeBaseline } from './governance.js';

for (const file of writeBaseline()) console.log(`wrote ${relative(process.cwd(), file)}`);
