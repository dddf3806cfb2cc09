import { Codes } from './codes.js';

export function renderErrorDocs(): string {
  const rows = Object.entries(Codes).map(([code, text]) => `| \`${code}\` | ${text} |`);
  return [
    '# Error codes',
    '',
    'Every GraphQL error carries one of these in `extensions.code`; the ops commands name theirs',
    '(`BACKUP_INCOMPATIBLE`, `RESTORE_TARGET_NOT_EMPTY`) when they refuse. Generated from',
    '`lib/errors/src/codes.ts` by `npm run errors:docs`; a test fails when this file is stale.',
    '',
    '| code | meaning |',
    '| --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
