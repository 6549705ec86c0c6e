// Lets `node` run the capture script's TypeScript in place (Node 20 cannot strip types): each
// `.ts` file is compiled to CommonJS with esbuild on require. In place, not bundled, so
// `__dirname` and node-pty's native module resolve as they do under jest.
const { transformSync } = require('esbuild');
const fs = require('node:fs');

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: filename,
    sourcemap: 'inline',
  });
  module._compile(code, filename);
};
