// The layers (README, Architecture): each folder may import only what lies below it.
const SERVER_ONLY = ['~/services/*', '~/services/**', '../services/*', '../../services/*', '~/db/*', '~/db/**', '../db/*', '../../db/*', '~/http/*', '~/auth/*.server', '~/routes/*', '**/*.server', '**/*.server.*'];
// type-only imports count too: a type that crosses a layer belongs in ~/types
const restrict = (patterns) => ['error', { patterns }];

/** @type {import('eslint').Linter.Config} */
module.exports = {
  root: true,
  parserOptions: { ecmaVersion: 'latest', sourceType: 'module', ecmaFeatures: { jsx: true } },
  env: { browser: true, commonjs: true, es6: true, node: true },
  ignorePatterns: ['!**/.server', '!**/.client', 'build/', 'public/build/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/'],
  extends: ['eslint:recommended'],
  overrides: [
    {
      files: ['**/*.{js,jsx,ts,tsx}'],
      plugins: ['react'],
      extends: ['plugin:react/recommended', 'plugin:react/jsx-runtime', 'plugin:react-hooks/recommended'],
      settings: { react: { version: 'detect' } },
      rules: { 'react/prop-types': 'off', 'react/no-unescaped-entities': 'off' },
    },
    {
      files: ['**/*.{ts,tsx}'],
      plugins: ['@typescript-eslint'],
      parser: '@typescript-eslint/parser',
      extends: ['plugin:@typescript-eslint/recommended'],
      rules: {
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
        '@typescript-eslint/no-explicit-any': 'error',
      },
    },
    { files: ['.eslintrc.cjs'], env: { node: true } },
    {
      // components render what loaders give them: no services, no database, no HTTP (types from ~/types)
      files: ['app/components/**/*.{ts,tsx}'],
      rules: {
        '@typescript-eslint/no-restricted-imports': restrict([
          { group: SERVER_ONLY, message: 'Components import no service, database or server module: take the data as props and its type from ~/types.' },
        ]),
      },
    },
    {
      // services hold the rules: plain values in, plain values out, nothing about requests or pages
      files: ['app/services/**/*.{ts,tsx}'],
      rules: {
        '@typescript-eslint/no-restricted-imports': restrict([
          { group: ['@remix-run/*', '~/http/*', '~/routes/*', '~/components/*', '~/components/**', '~/root', '~/auth/session.server', '~/auth/oauth.server', '~/auth/user.server'], message: 'Services import nothing about HTTP, routes or components: take plain values and the acting user.' },
        ]),
      },
    },
    {
      // routes reach the database only through services
      files: ['app/routes/**/*.{ts,tsx}', 'app/root.tsx'],
      rules: {
        '@typescript-eslint/no-restricted-imports': restrict([
          { group: ['~/db/*', '~/db/**'], message: 'Routes do not touch the database: call a service.' },
        ]),
      },
    },
    {
      // the database layer and the pure helpers depend on nothing above them
      files: ['app/db/**/*.ts', 'app/utils/**/*.ts', 'app/forms/**/*.ts', 'app/types/**/*.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': restrict([
          { group: ['@remix-run/*', '~/http/*', '~/routes/*', '~/components/*', '~/components/**', '~/auth/*.server'], message: 'This layer sits below the routes, components and HTTP helpers: it may not import them.' },
        ]),
      },
    },
  ],
};
