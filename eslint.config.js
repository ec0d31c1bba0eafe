import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Zod 4 where the servers parse every call (contract, upstream, the app's upstream client); the forms stay on zod 3
// with conform's v3 adapter until they move together (decision 0050). A browser module never imports a call's schema.
const zod4Only = { name: 'zod', message: "Use 'zod/v4' here (decision 0050)." };
const appPaths = [
  // The app has its own binding in react-i18next's place (decision 0015); the package is not installed.
  { name: 'react-i18next', message: "Use '~/i18n/react' (decision 0015)." },
];
const appPatterns = [{ regex: '^(\\.\\./)+(upstream|server)(/|$)', message: 'app/ reaches the upstream only over HTTP.' }];

export default tseslint.config(
  { ignores: ['build/**', '.builds/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // The architecture's boundaries (docs/architecture.md §1, "Boundaries").
  {
    files: ['app/**'],
    rules: {
      // The app's own client is ~/upstream/*; a relative path climbing to upstream/ or server/ leaves the app.
      'no-restricted-imports': ['error', { paths: appPaths, patterns: appPatterns }],
    },
  },
  {
    files: ['app/upstream/**', 'app/utils/env.server.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [...appPaths, zod4Only], patterns: appPatterns }] },
  },
  {
    files: ['upstream/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [zod4Only] }] },
  },
  {
    files: ['contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [zod4Only],
          patterns: [
            {
              group: ['**/app/**', '**/server/**', '**/upstream/**', '~/*'],
              message: 'contract/ imports nothing from app, server or upstream.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**'],
    ignores: ['server/**/*.test.ts', 'server/**/test-support.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [zod4Only],
          patterns: [
            { regex: '^(\\.\\./)+upstream/(?!index$)', message: 'server/ imports only the upstream start().' },
            { regex: '^(\\.\\./)+app/|^~/', message: 'server/ does not import the app.' },
          ],
        },
      ],
    },
  },
);
