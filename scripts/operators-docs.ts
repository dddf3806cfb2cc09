import { readFileSync, writeFileSync } from 'node:fs';
import { withDocSection } from '@nvcf/subgraph-kit';
import { renderOperatorMessagesDocs } from '@nvcf/test/operator-docs';

// rewrites the generated section of docs/operators.md (the messages its playbooks quote); the rest is written by hand
const file = new URL('../docs/operators.md', import.meta.url);
writeFileSync(file, withDocSection(readFileSync(file, 'utf8'), await renderOperatorMessagesDocs()));
