import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'fixtures/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // DESIGN.md §3 layering: zor stands alone; commands reach the server only through src/client;
    // src/rpc knows nothing of fux.
    files: ['src/zor/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(server|client|commands|rpc)(/|$)', message: 'src/zor stands alone' },
          ],
        },
      ],
    },
  },
  {
    // src/protocol is the code both sides run: pure (no node APIs, no server or client state), so a
    // client can import it at run time, not just its types.
    files: ['src/protocol/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(node:.*|(${builtinModules.filter((m) => !m.startsWith('_')).join('|')})(/.*)?)$`,
              message: 'src/protocol is pure: no node APIs',
            },
            {
              regex: '^(\\.\\./)+(server|client|commands|rpc|zor)(/|$)',
              message: 'src/protocol imports nothing of fux outside src/protocol',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/commands/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(server|rpc)(/|$)',
              message: 'commands reach the server through src/client',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/rpc/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(server|client|commands|zor)(/|$)',
              message: 'src/rpc knows nothing of fux',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/pty/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(server|client|commands|zor|rpc)(/|$)',
              message: 'src/pty knows nothing of fux: the server and zor both use it',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+server(/|$)',
              allowTypeImports: true,
              message: 'the client imports only types from the server',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
