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
  ],
};
