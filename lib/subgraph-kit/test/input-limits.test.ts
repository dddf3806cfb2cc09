import { readFileSync } from 'node:fs';
import {
  buildSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  getNamedType,
  type GraphQLInputType,
} from 'graphql';
import { readPublicSchema } from '@nvcf/schema';
import {
  docSectionOf,
  inputLimits,
  inputLimitsSectionOf,
  renderInputLimitsDocs,
  withDocSection,
  withInputLimitsSection,
} from '../src/index.js';

const schema = buildSchema(readPublicSchema());

describe('input limits', () => {
  it('docs/limits.md has the generated "Input values" section (run npm run limits:docs)', () => {
    const committed = readFileSync(new URL('../../../docs/limits.md', import.meta.url), 'utf8');
    expect(committed.startsWith('# Limits\n')).toBe(true);
    expect(inputLimitsSectionOf(committed)).toBe(renderInputLimitsDocs());
  });

  it('regenerating keeps the sections written by hand', () => {
    const before = '# Limits\n\nintro\n\n## Request size\n\nbody\n\n## Input values\n\nold\n\n## Rate\n\nrate\n';
    const after = withInputLimitsSection(before);
    expect(after).toContain('## Request size\n\nbody\n\n## Input values\n');
    expect(after.endsWith(`${renderInputLimitsDocs()}\n## Rate\n\nrate\n`)).toBe(true);
    expect(inputLimitsSectionOf(after)).toBe(renderInputLimitsDocs());
    expect(withInputLimitsSection(after)).toBe(after);
    const appended = withInputLimitsSection('# Limits\n\nintro\n\n## Request size\n\nbody\n');
    expect(appended).toBe(`# Limits\n\nintro\n\n## Request size\n\nbody\n\n${renderInputLimitsDocs()}`);
    expect(withInputLimitsSection(undefined).startsWith('# Limits\n')).toBe(true);
    expect(docSectionOf('## A\n\na\n\n## B\n\nb\n', '## A')).toBe('## A\n\na\n');
    expect(docSectionOf('## A\n\na\n\n## B\n\nb\n', '## B')).toBe('## B\n\nb\n');
    expect(withDocSection('## A\n\na\n\n## B\n\nb\n', '## A\n\nnew\n')).toBe('## A\n\nnew\n\n## B\n\nb\n');
  });

  it('every bound names a coordinate of the public schema, of a kind it can bound', () => {
    for (const [coordinate, limit] of Object.entries(inputLimits.fields)) {
      const arg = /^(\w+)\.(\w+)\((\w+):\)$/.exec(coordinate);
      let type: GraphQLInputType | undefined;
      if (arg) {
        const fields = (schema.getType(arg[1]) as any)?.getFields();
        type = fields?.[arg[2]]?.args.find((a: { name: string }) => a.name === arg[3])?.type;
      } else {
        const [typeName, field] = coordinate.split('.');
        const t = schema.getType(typeName);
        type = isInputObjectType(t) ? t.getFields()[field]?.type : undefined;
      }
      expect([coordinate, type !== undefined]).toEqual([coordinate, true]);
      const named = getNamedType(type!).name;
      const list = isListType(isNonNullType(type) ? type.ofType : type);
      if (limit.maxItems != null || limit.maxTotalBytes != null) expect([coordinate, list]).toEqual([coordinate, true]);
      if (limit.maxLength != null || limit.minLength != null)
        expect([coordinate, named]).toEqual([coordinate, expect.stringMatching(/^(String|ID)$/)]);
      if (limit.maxBytes != null || limit.maxDepth != null) expect([coordinate, named]).toEqual([coordinate, 'JSON']);
    }
  });
});
