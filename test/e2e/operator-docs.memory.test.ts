/**
 * docs/operators.md's playbooks quote the messages the code emits: its generated section is what
 * the code renders now (run `npm run operators:docs`), and every message there is quoted by a
 * playbook above it, so a changed message fails here until both are updated.
 */
import { readFileSync } from 'node:fs';
import { setLogLevel } from '@nvcf/logging';
import { OPERATOR_MESSAGES_HEADING, operatorMessages, renderOperatorMessagesDocs } from '@nvcf/test/operator-docs';

const doc = readFileSync(new URL('../../docs/operators.md', import.meta.url), 'utf8');
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('docs/operators.md and the messages of the code', () => {
  beforeAll(() => setLogLevel('error')); // rendering the webhook's messages logs its warnings

  it('its generated section is current (npm run operators:docs)', async () => {
    expect(doc).toContain(await renderOperatorMessagesDocs());
  });

  it('the playbooks quote every message, as the code words it', async () => {
    const playbooks = flat(
      doc.slice(doc.indexOf('## Troubleshooting playbooks'), doc.indexOf(OPERATOR_MESSAGES_HEADING)),
    );
    expect(playbooks.length).toBeGreaterThan(1000);
    const unquoted = (await operatorMessages()).map((m) => m.message).filter((m) => !playbooks.includes(flat(m)));
    expect(unquoted).toEqual([]);
  });

  it('has a playbook for each failure the design names, and the onboarding checklist', () => {
    for (const heading of [
      '## Troubleshooting: operator pod not running',
      '## Troubleshooting: MiniService stuck installing',
      '## Troubleshooting: Pod Security Standards violation',
      '## Troubleshooting: single-tenancy violation',
      '## Troubleshooting: webhook unavailable',
      '## Operator onboarding checklist',
    ])
      expect(doc).toContain(`\n${heading}\n`);
    for (const part of ['**Symptom.**', '**Cause.**', '**Confirm.**', '**Fix.**'])
      expect(doc.split(part).length - 1).toBeGreaterThanOrEqual(5);
  });
});
