import type * as Unblessed from '@unblessed/node' with { 'resolution-mode': 'import' };
import { createRequire } from 'node:module';

/**
 * @unblessed/node (which initialises @unblessed/core's runtime on load). The package is ESM with
 * a CommonJS build; TypeScript will not let a CommonJS file `import` an ESM package's types for a
 * `require`, so the types come in as an import-mode type import and the value by require.
 */
export const unblessed = createRequire(__filename)('@unblessed/node') as typeof Unblessed;

export type UnblessedBox = InstanceType<typeof Unblessed.Box>;
export type UnblessedList = InstanceType<typeof Unblessed.List>;
