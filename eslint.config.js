// Type-aware lint over every source; `npm test` runs it (scripts/lint.ts) and a finding fails
// the run (npm run lint). Opt-outs are per folder, each with its reason.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.cache/**',
      '.services/**',
      'coverage/**',
      'test/artifacts/**',
      // written by graphql-codegen and checked for freshness, not edited
      '**/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `async` marks a function that returns a promise even when it awaits nothing: dropping it
      // would turn a throw into a synchronous one that callers chaining .catch() never see
      '@typescript-eslint/require-await': 'off',
      // TypeScript checks names; this rule does not know about types and globals declared in .d.ts
      'no-undef': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['console/web/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests and benchmarks read JSON answers of whatever shape the system returns and assert on
    // them: the assertion is the type check, so the unsafe-any family would only add casts.
    files: ['**/test/**', '**/*.test.ts', 'test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
