import { fail } from '@nvcf/errors';

/**
 * Refuses a variables object nested deeper than `maxDepth` before anything recursive
 * (coercion, the planner, JSON serialisation to subgraphs) walks it. Iterative: a value
 * nested 100 000 levels deep must not overflow this check's own stack.
 */
export function checkVariableDepth(variables: Record<string, unknown>, maxDepth: number) {
  const stack: [unknown, number, string][] = Object.entries(variables).map(([k, v]) => [v, 1, `$${k}`]);
  while (stack.length) {
    const [value, depth, path] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) {
      throw fail(
        'LIMIT_EXCEEDED',
        `variable ${path.split(/[.[]/)[0]} is nested more than ${maxDepth} levels deep (at ${path}); flatten the value`,
        { limit: maxDepth, field: path },
      );
    }
    if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, depth + 1, `${path}[${i}]`]));
    else for (const [k, v] of Object.entries(value)) stack.push([v, depth + 1, `${path}.${k}`]);
  }
}
