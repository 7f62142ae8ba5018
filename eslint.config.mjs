import nx from '@nx/eslint-plugin';

const SPEC_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.rel-spec.ts', '**/testing/**/*.ts'];

/** Which projects may import which (project tags in each project.json). */
function depConstraints({ allowTestHelpers }) {
  const shared = ['scope:api', 'scope:worker', ...(allowTestHelpers ? [] : ['scope:test'])];
  return [
    // pure libraries (no database, no queue, no network) may only use other pure libraries
    { sourceTag: 'layer:pure', onlyDependOnLibsWithTags: allowTestHelpers ? ['layer:pure', 'scope:test'] : ['layer:pure'] },
    { sourceTag: 'layer:io', onlyDependOnLibsWithTags: ['layer:pure', 'layer:io'] },
    // API-only libraries are not imported by the workers, and the API does not load the worker pipelines
    // (it queues work and reads run records through @bhis/runs)
    { sourceTag: 'scope:worker', notDependOnLibsWithTags: ['scope:api'] },
    { sourceTag: 'scope:api', notDependOnLibsWithTags: ['scope:worker'] },
    { sourceTag: 'scope:shared', notDependOnLibsWithTags: shared },
    { sourceTag: 'type:lib', notDependOnLibsWithTags: ['type:app'] },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  ];
}

const boundaries = (allowTestHelpers) => [
  'error',
  { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints({ allowTestHelpers }) },
];

export default [
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/*.js', '**/*.mjs', 'tmp/**', 'libs/client/src/schema.d.ts'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // a function reads top to bottom on a screen or two; migrations are SQL text, specs are lists of cases
    files: ['**/*.ts'],
    ignores: [...SPEC_FILES, '**/migrations/*.ts', '**/generated/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // specs and their helpers may use the test helpers (@bhis/testing)
    files: SPEC_FILES,
    rules: {
      '@nx/enforce-module-boundaries': boundaries(true),
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
];
