import * as fs from 'node:fs';
import * as path from 'node:path';

/** The package version, read once from package.json (dist/server/ and src/server/ are both two levels down). */
export const version: string = (
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
