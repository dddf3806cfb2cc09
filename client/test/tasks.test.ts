import { readFileSync } from 'node:fs';
import { buildSchema, isEnumType } from 'graphql';
import { TASK_STATUSES, TASK_TERMINAL_STATUSES, taskEnded } from '../src/index.js';

const sdl = readFileSync(new URL('../../schema/public.graphql', import.meta.url), 'utf8');

describe('task statuses', () => {
  it("list every value of the schema's TaskStatus, so a new status cannot be missed by a watch", () => {
    const type = buildSchema(sdl, { assumeValidSDL: true }).getType('TaskStatus');
    if (!isEnumType(type)) throw new Error('TaskStatus is not an enum in schema/public.graphql');
    expect([...TASK_STATUSES].sort()).toEqual(
      type
        .getValues()
        .map((v) => v.name)
        .sort(),
    );
  });

  it('end a task at the five terminal states (docs/tasks.md) and at no other', () => {
    expect([...TASK_TERMINAL_STATUSES].sort()).toEqual([
      'CANCELED',
      'COMPLETED',
      'ERRORED',
      'EXCEEDED_MAX_QUEUED_DURATION',
      'EXCEEDED_MAX_RUNTIME',
    ]);
    expect(TASK_STATUSES.filter((s) => !taskEnded(s))).toEqual(['QUEUED', 'LAUNCHED', 'RUNNING']);
  });
});
