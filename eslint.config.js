import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Entry points may read the environment; everything else gets a Config through createDeps. */
const ENTRY_POINTS = ['lib/local/main.ts', 'lib/local/admin-cli.ts', 'lib/mcp/cli.ts'];

/** Adapters beside their ports, the SDK clients and the local emulation are the only SDK users. */
const SDK_ADAPTERS = [
  'lib/**/dynamo-*.ts',
  'lib/**/s3-*.ts',
  'lib/**/sqs-*.ts',
  'lib/**/kms-*.ts',
  'lib/aws/**',
  'lib/local/**',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.data/',
      '.tmp/',
      '.cache/',
      'coverage/',
      'test/fixtures/**/*.js',
      'bin/',
      'clients/**/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ENTRY_POINTS,
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Only lib/config.ts loadConfig() and entry points read the environment; take a Config from deps.',
        },
      ],
    },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: SDK_ADAPTERS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*'],
              message: 'Only adapters (dynamo-*, s3-*, sqs-*, kms-* beside their port) and lib/aws import the AWS SDK.',
            },
          ],
        },
      ],
    },
  },
);
