#!/usr/bin/env node
// Applies fux's patch to @xterm/headless after install (package.json `postinstall`): a line feed at
// the bottom of a full buffer recycles the oldest row and copies a blank row into it, and that copy
// (BufferLine.copyFrom) allocated two objects per line and walked both with for…in, even when
// both were empty, as they nearly always are. The patched copy empties the two maps only when they
// hold something, with the same result. docs/upstream/xterm-scroll.md has the upstream change.
//
// The built files are patched in place, checking the exact text being replaced: a version of
// xterm whose text differs fails here, loudly, instead of being patched wrong. A file already
// patched is left as it is, so running this again does nothing. `--check` only reports.
const fs = require('node:fs');
const path = require('node:path');

const EXPECTED_VERSION = '6.0.0';

/** Per built file: the text of copyFrom as shipped, and as patched (same minified names). */
const PATCHES = [
  {
    file: 'lib-headless/xterm-headless.js',
    from:
      'this.length=e.length,this._combined={};for(const t in e._combined)this._combined[t]=e._combined[t];' +
      'this._extendedAttrs={};for(const t in e._extendedAttrs)this._extendedAttrs[t]=e._extendedAttrs[t];' +
      'this.isWrapped=e.isWrapped}',
    to:
      'this.length=e.length;for(const t in this._combined){this._combined={};break}' +
      'for(const t in e._combined)this._combined[t]=e._combined[t];' +
      'for(const t in this._extendedAttrs){this._extendedAttrs={};break}' +
      'for(const t in e._extendedAttrs)this._extendedAttrs[t]=e._extendedAttrs[t];' +
      'this.isWrapped=e.isWrapped}/*fux:copyFrom*/',
  },
  {
    file: 'lib-headless/xterm-headless.mjs',
    from:
      'this.length=t.length,this._combined={};for(let e in t._combined)this._combined[e]=t._combined[e];' +
      'this._extendedAttrs={};for(let e in t._extendedAttrs)this._extendedAttrs[e]=t._extendedAttrs[e];' +
      'this.isWrapped=t.isWrapped}',
    to:
      'this.length=t.length;for(let e in this._combined){this._combined={};break}' +
      'for(let e in t._combined)this._combined[e]=t._combined[e];' +
      'for(let e in this._extendedAttrs){this._extendedAttrs={};break}' +
      'for(let e in t._extendedAttrs)this._extendedAttrs[e]=t._extendedAttrs[e];' +
      'this.isWrapped=t.isWrapped}/*fux:copyFrom*/',
  },
];

function count(text, part) {
  return text.split(part).length - 1;
}

/** Patch the package at `dir` (node_modules/@xterm/headless); returns what was done per file. */
function patchXterm(dir, { check = false } = {}) {
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (version !== EXPECTED_VERSION) {
    throw new Error(
      `@xterm/headless is ${version}, but scripts/patch-xterm.js patches ${EXPECTED_VERSION}: ` +
        'check whether the new version still needs the patch (docs/upstream/xterm-scroll.md), then update it',
    );
  }
  return PATCHES.map(({ file, from, to }) => {
    const full = path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    if (count(text, to) === 1 && count(text, from) === 0) return `${file}: already patched`;
    if (count(text, from) !== 1) {
      throw new Error(`${full} does not hold the expected copyFrom exactly once: not patching it`);
    }
    if (check) return `${file}: not patched`;
    fs.writeFileSync(full, text.replace(from, to));
    return `${file}: patched`;
  });
}

module.exports = { patchXterm, PATCHES, EXPECTED_VERSION };

if (require.main === module) {
  const dir = path.dirname(require.resolve('@xterm/headless/package.json', { paths: [process.cwd()] }));
  try {
    for (const line of patchXterm(dir, { check: process.argv.includes('--check') })) {
      process.stdout.write(`patch-xterm: ${line}\n`);
    }
  } catch (err) {
    process.stderr.write(`patch-xterm: ${err.message}\n`);
    process.exit(1);
  }
}
