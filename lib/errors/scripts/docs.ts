import { writeFileSync } from 'node:fs';
import { renderErrorDocs } from '../src/index.js';

writeFileSync(new URL('../../../docs/errors.md', import.meta.url), renderErrorDocs());
