import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/*.js', '**/*.mjs', 'tmp/**', 'libs/client/src/schema.d.ts'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // pure libraries (no database, no queue, no network) may only use other pure libraries
            { sourceTag: 'layer:pure', onlyDependOnLibsWithTags: ['layer:pure'] },
            { sourceTag: 'layer:io', onlyDependOnLibsWithTags: ['layer:pure', 'layer:io'] },
            // API-only libraries are not imported by the workers
            { sourceTag: 'scope:worker', notDependOnLibsWithTags: ['scope:api'] },
            { sourceTag: 'scope:shared', notDependOnLibsWithTags: ['scope:api', 'scope:worker', 'scope:test'] },
            { sourceTag: 'type:lib', notDependOnLibsWithTags: ['type:app'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
