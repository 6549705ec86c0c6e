/**
 * smol-toml ships a CommonJS build but only ESM typings, so TypeScript (module node16) refuses a
 * plain `import` from our CommonJS output. The package's `require` export is the real CJS build;
 * load it with `require` and borrow the types from the ESM declarations.
 */
import type { TomlError as SmolTomlError } from 'smol-toml' with { 'resolution-mode': 'import' };

type SmolToml = typeof import('smol-toml', { with: { 'resolution-mode': 'import' } });

// eslint-disable-next-line @typescript-eslint/no-require-imports
const smolToml = require('smol-toml') as SmolToml;

export type TomlError = SmolTomlError;

export const parseToml: SmolToml['parse'] = smolToml.parse;

export function isTomlError(error: unknown): error is TomlError {
  return error instanceof smolToml.TomlError;
}
