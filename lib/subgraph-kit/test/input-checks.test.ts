import { GraphQLError } from 'graphql';
import { checkHelmValues, checkName } from '../src/index.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    const e = err as GraphQLError;
    return { code: e.extensions.code, field: e.extensions.field, message: e.message };
  }
  throw new Error('not refused');
};

describe('checkName', () => {
  it("takes a name within its coordinate's limit and refuses one outside it", () => {
    expect(() => checkName('CreateTaskInput.name', 'eval')).not.toThrow();
    expect(refusal(() => checkName('CreateFunctionInput.name', ''))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'name',
      message: 'name must be 1 to 128 characters (got 0)',
    });
    expect(refusal(() => checkName('CreateTaskInput.name', 'x'.repeat(129))).message).toBe(
      'name must be 1 to 128 characters (got 129)',
    );
  });

  it('refuses control characters', () => {
    expect(refusal(() => checkName('CreateTaskInput.name', 'a\nb'))).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'name must not contain control characters',
    });
  });
});

describe('checkHelmValues', () => {
  it('returns an object within the limit as it is', () => {
    const v = { replicas: 2 };
    expect(checkHelmValues('configuration', v, 64)).toBe(v);
  });

  it('refuses a value that is not an object, naming what it got', () => {
    expect(refusal(() => checkHelmValues('configuration', [1], 64))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'configuration',
      message: 'configuration must be a JSON object of Helm values (got an array)',
    });
    expect(refusal(() => checkHelmValues('x', null, 64)).message).toContain('(got null)');
  });

  it('refuses an object over the byte limit with LIMIT_EXCEEDED', () => {
    expect(refusal(() => checkHelmValues('configuration', { a: 'x'.repeat(100) }, 64))).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      field: 'configuration',
    });
  });
});
