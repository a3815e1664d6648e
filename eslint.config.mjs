import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'docs/api/', 'coverage/', 'node_modules/', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    files: ['bench/**/*.mjs'],
    languageOptions: {
      globals: {
        URL: 'readonly',
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
  {
    // The console page (plain browser JavaScript, no build step): values from the broker are
    // written with textContent; an HTML sink would make a queue name or a message body markup.
    files: ['console/**/*.mjs'],
    languageOptions: {
      globals: {
        document: 'readonly',
        fetch: 'readonly',
        FormData: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        encodeURIComponent: 'readonly',
        TextDecoder: 'readonly',
        Uint8Array: 'readonly',
        atob: 'readonly',
      },
    },
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'write text with textContent' },
        { property: 'outerHTML', message: 'write text with textContent' },
        { property: 'insertAdjacentHTML', message: 'build elements and set textContent' },
        { object: 'document', property: 'write', message: 'build elements and set textContent' },
      ],
    },
  },
);
