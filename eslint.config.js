/**
 * ESLint (flat config): typescript-eslint strict-type-checked over every TypeScript file, eslint-plugin-svelte
 * over the renderer's components. Prettier owns formatting, dependency-cruiser the layer rules
 * (.dependency-cruiser.cjs).
 *
 * `npm run lint` (scripts/lint.ts, part of `npm test`) fails on any finding in the folders of ENFORCED;
 * `npm run lint -- --report` counts the findings per rule and per folder over the whole tree.
 * ENFORCED is the whole tree (LINTED); it was grown folder by folder as each became clean.
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

/** Everything that is linted. */
export const LINTED = ['src', 'electron', 'renderer', 'scripts', 'bench', 'test', '*.ts', '*.js', '.dependency-cruiser.cjs'];

/** Where a lint finding fails `npm test`: since 2026-11-28 the whole tree. */
export const ENFORCED = [...LINTED];

export default defineConfig(
  {
    ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'test/e2e/screenshots/**'],
  },
  js.configs.recommended,
  ts.configs.strictTypeChecked,
  svelte.configs.recommended,
  svelte.configs.prettier,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // Config files outside both tsconfig projects.
          allowDefaultProject: ['renderer/vite.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: ts.parser, svelteFeatures: { experimentalGenerics: true } },
      globals: globals.browser,
    },
  },
  {
    files: ['renderer/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/**', 'electron/**', 'scripts/**', 'bench/**', 'test/**', '*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      // `() => resolve()` callbacks are idiomatic; the rule still catches a void value that is returned or assigned.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Numbers and booleans read fine in messages; objects are the mistake worth catching.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `_`-prefixed parameters and destructured rests are deliberately unused.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Prettier wraps code at 140 but leaves long strings, comments and template literals as written.
      'max-len': ['error', { code: 140, tabWidth: 2, ignoreUrls: true }],
    },
  },
  {
    // Prose inside markup is whitespace-sensitive, so Prettier keeps a sentence whole and would undo a manual wrap.
    // A line that ends in a word, a closing tag's name or a full stop is such prose; code lines end otherwise.
    files: ['**/*.svelte'],
    rules: { 'max-len': ['error', { code: 140, tabWidth: 2, ignoreUrls: true, ignorePattern: "(?:[\\p{L}’'.]|</[A-Za-z]+)\\s*$" }] },
  },
  {
    // Plain JavaScript config files: no type information.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [ts.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // CommonJS on purpose (scripts/run.cjs starts faster without the ES-module loader): require is its import.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
