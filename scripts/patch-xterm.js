#!/usr/bin/env node
// Applies fux's patch to @xterm/headless after install (package.json `postinstall`). A line feed at
// the bottom of a full buffer recycles the oldest row and copies a blank row into it
// (BufferLine.copyFrom). Published, that copy writes every cell (2.4 KB a row at 200 columns, into
// a ring of 24 MB that is never in cache) and allocated two objects per line, walking both with
// for…in, even when both were empty, as they nearly always are. The patch:
//
// 1. empties the two maps only when they hold something, with the same result;
// 2. keeps, per row, how many leading cells may differ from the blank the row was last filled
//    with (`_fuxDirty`, raised by every method that writes a cell), so copying a blank of the
//    same kind into a row rewrites only those cells: a 7-character line of `seq` costs 8 cells,
//    not 200. Any other copy is the full copy it was.
// 3. prints a run of plain ASCII (0x20-0x7e) that fits on the row in one tight loop, when no
//    charset, insert mode, screen reader mode or hyperlink is in force: each character is a cell
//    of width 1 written with the current attributes, exactly what the general loop writes after it
//    has asked the unicode service for the width, checked for joining, wrapping and links, one
//    character at a time. The rest of the print, from the first other character, is the general
//    loop. A 99-character line printed ~4x faster.
//
// docs/upstream/xterm-scroll.md has the upstream changes.
//
// The built files are patched in place, one edit after the other, each checking the exact text it
// replaces: a version of xterm whose text differs fails here, loudly, instead of being patched
// wrong. An edit already made is left as it is, so running this again does nothing, and a package
// carrying only the first edit (an install from before the second) gets the second.
// `--check` only reports.
const fs = require('node:fs');
const path = require('node:path');

const EXPECTED_VERSION = '6.0.0';

/** The fields the patch adds to BufferLine: the dirty extent and the blank the rest of the row holds. */
const DIRTY = '_fuxDirty';
const FILL = ['_fuxFillC', '_fuxFillF', '_fuxFillB'];
const sameFill = (a, b) => FILL.map((f) => `${a}.${f}===${b}.${f}`).join('&&');
const copyFill = (to, from, sep) => FILL.map((f) => `${to}.${f}=${from}.${f}`).join(sep);
const raise = (cell, to = `${cell}+1`) => `${to}>this.${DIRTY}&&(this.${DIRTY}=${to})`;

/**
 * Edit 3, InputHandler.print's ASCII run, in the names the minified build gives print's locals:
 * the code points, the run's bounds, the general loop's index, the code and join-state variables,
 * the row, the attributes and the width. `off` are the locals that must all be falsy (charset,
 * screen reader, insert mode). The run is printed before the general loop, which then starts at
 * `_fuxV`, the first character it must see; the join state after a run is that of its last
 * character, as the loop would leave it.
 */
function asciiRunEdit(v, off) {
  const loop = (start) => `for(let ${v.loop}=${start};${v.loop}<${v.end};++${v.loop}){`;
  return {
    from: `let ${v.join}=this._parser.precedingJoinState;${loop(v.start)}`,
    to: asciiRun(v, off) + loop('_fuxV'),
  };
}

function asciiRun(v, off) {
  return (
    `let ${v.join}=this._parser.precedingJoinState,_fuxV=${v.start};` +
    `if(${off.map((o) => `!${o}`).join('&&')}&&!this._getCurrentLinkId()){` +
    `let _fuxX=this._activeBuffer.x;const _fuxEnd=Math.min(${v.end},${v.start}+${v.cols}-_fuxX);` +
    `for(;_fuxV<_fuxEnd&&(${v.code}=${v.data}[_fuxV])>=32&&${v.code}<127;++_fuxV)` +
    `${v.line}.setCellFromCodepoint(_fuxX++,${v.code},1,${v.attr});` +
    `if(_fuxV>${v.start}){this._activeBuffer.x=_fuxX;` +
    `${v.join}=this._unicodeService.charProperties(${v.data}[_fuxV-1],${v.join})}}`
  );
}

/** Per built file, the edits in order: the text as shipped (or as left by the edit before) and as patched. */
const PATCHES = [
  {
    file: 'lib-headless/xterm-headless.js',
    edits: [
      {
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
        from:
          'class h{constructor(e,t,s=!1){this.isWrapped=s,this._combined={},this._extendedAttrs={},this._data=new Uint32Array(3*e);' +
          'const i=t||r.CellData.fromCharData([0,n.NULL_CELL_CHAR,n.NULL_CELL_WIDTH,n.NULL_CELL_CODE]);' +
          'for(let t=0;t<e;++t)this.setCell(t,i);this.length=e}',
        to:
          `class h{constructor(e,t,s=!1){this.isWrapped=s,this._combined={},this._extendedAttrs={},this.${DIRTY}=0,` +
          `${FILL.map((f) => `this.${f}=0`).join(',')},this._data=new Uint32Array(3*e);` +
          'const i=t||r.CellData.fromCharData([0,n.NULL_CELL_CHAR,n.NULL_CELL_WIDTH,n.NULL_CELL_CODE]);' +
          'for(let t=0;t<e;++t)this.setCell(t,i);this.length=e,this._fuxFilled(i)}' +
          `_fuxFilled(e){2097152&e.content||268435456&e.bg||(this.${DIRTY}=0,this._fuxFillC=e.content,this._fuxFillF=e.fg,this._fuxFillB=e.bg)}`,
      },
      { from: 'set(e,t){this._data[3*e+1]=', to: `set(e,t){${raise('e')},this._data[3*e+1]=` },
      { from: 'setCell(e,t){2097152&t.content', to: `setCell(e,t){${raise('e')},2097152&t.content` },
      {
        from: 'setCellFromCodepoint(e,t,s,i){268435456&i.bg',
        to: `setCellFromCodepoint(e,t,s,i){${raise('e')},268435456&i.bg`,
      },
      {
        from: 'addCodepointToCell(e,t,s){let i=this._data[3*e+0];',
        to: `addCodepointToCell(e,t,s){${raise('e')};let i=this._data[3*e+0];`,
      },
      {
        from: 'else{this._data=this._data.subarray(0,s);',
        to: `else{this._data=this._data.subarray(0,s),this.${DIRTY}>e&&(this.${DIRTY}=e);`,
      },
      {
        from: 'else{this._combined={},this._extendedAttrs={};for(let t=0;t<this.length;++t)this.setCell(t,e)}}',
        to: 'else{this._combined={},this._extendedAttrs={};for(let t=0;t<this.length;++t)this.setCell(t,e);this._fuxFilled(e)}}',
      },
      {
        from: 'copyFrom(e){this.length!==e.length?this._data=new Uint32Array(e._data):this._data.set(e._data),this.length=e.length;',
        to:
          `copyFrom(e){if(0===e.${DIRTY}&&this.length===e.length&&${sameFill('this', 'e')}){` +
          `const t=this._data,s=e._data;for(let e=0,i=3*this.${DIRTY};e<i;e++)t[e]=s[e]}` +
          `else this.length!==e.length?this._data=new Uint32Array(e._data):this._data.set(e._data),${copyFill('this', 'e', ',')};` +
          `this.${DIRTY}=e.${DIRTY},this.length=e.length;`,
      },
      {
        from: 'clone(){const e=new h(0);e._data=new Uint32Array(this._data),e.length=this.length;',
        to: `clone(){const e=new h(0);e._data=new Uint32Array(this._data),e.length=this.length,e.${DIRTY}=this.${DIRTY},${copyFill('e', 'this', ',')};`,
      },
      {
        from: 'copyCellsFrom(e,t,s,i,r){const n=e._data;',
        to: `copyCellsFrom(e,t,s,i,r){${raise('s', 's+i')};const n=e._data;`,
      },
      asciiRunEdit(
        { start: 't', end: 's', loop: 'v', data: 'e', code: 'i', join: 'g', line: '_', attr: 'f', cols: 'a' },
        ['n', 'o', 'd'],
      ),
    ],
  },
  {
    file: 'lib-headless/xterm-headless.mjs',
    edits: [
      {
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
      {
        from:
          'class n{constructor(t,e,r=!1){this.isWrapped=r;this._combined={};this._extendedAttrs={};this._data=new Uint32Array(t*C);' +
          'let i=e||G.fromCharData([0,Ve,1,0]);for(let s=0;s<t;++s)this.setCell(s,i);this.length=t}',
        to:
          `class n{constructor(t,e,r=!1){this.isWrapped=r;this._combined={};this._extendedAttrs={};this.${DIRTY}=0;` +
          `${FILL.map((f) => `this.${f}=0`).join(';')};this._data=new Uint32Array(t*C);` +
          'let i=e||G.fromCharData([0,Ve,1,0]);for(let s=0;s<t;++s)this.setCell(s,i);this.length=t,this._fuxFilled(i)}' +
          `_fuxFilled(t){t.content&2097152||t.bg&268435456||(this.${DIRTY}=0,this._fuxFillC=t.content,this._fuxFillF=t.fg,this._fuxFillB=t.bg)}`,
      },
      { from: 'set(t,e){this._data[t*C+1]=', to: `set(t,e){${raise('t')},this._data[t*C+1]=` },
      { from: 'setCell(t,e){e.content&2097152', to: `setCell(t,e){${raise('t')},e.content&2097152` },
      {
        from: 'setCellFromCodepoint(t,e,r,i){i.bg&268435456',
        to: `setCellFromCodepoint(t,e,r,i){${raise('t')},i.bg&268435456`,
      },
      {
        from: 'addCodepointToCell(t,e,r){let i=this._data[t*C+0];',
        to: `addCodepointToCell(t,e,r){${raise('t')};let i=this._data[t*C+0];`,
      },
      {
        from: 'else{this._data=this._data.subarray(0,r);',
        to: `else{this._data=this._data.subarray(0,r),this.${DIRTY}>t&&(this.${DIRTY}=t);`,
      },
      {
        from: 'this._combined={},this._extendedAttrs={};for(let r=0;r<this.length;++r)this.setCell(r,t)}',
        to: 'this._combined={},this._extendedAttrs={};for(let r=0;r<this.length;++r)this.setCell(r,t);this._fuxFilled(t)}',
      },
      {
        from: 'copyFrom(t){this.length!==t.length?this._data=new Uint32Array(t._data):this._data.set(t._data),this.length=t.length;',
        to:
          `copyFrom(t){if(t.${DIRTY}===0&&this.length===t.length&&${sameFill('this', 't')}){` +
          `let e=this._data,r=t._data;for(let i=0,s=this.${DIRTY}*3;i<s;i++)e[i]=r[i]}` +
          `else this.length!==t.length?this._data=new Uint32Array(t._data):this._data.set(t._data),${copyFill('this', 't', ',')};` +
          `this.${DIRTY}=t.${DIRTY},this.length=t.length;`,
      },
      {
        from: 'clone(){let t=new n(0);t._data=new Uint32Array(this._data),t.length=this.length;',
        to: `clone(){let t=new n(0);t._data=new Uint32Array(this._data),t.length=this.length,t.${DIRTY}=this.${DIRTY},${copyFill('t', 'this', ',')};`,
      },
      {
        from: 'copyCellsFrom(t,e,r,i,s){let a=t._data;',
        to: `copyCellsFrom(t,e,r,i,s){${raise('r', 'r+i')};let a=t._data;`,
      },
      asciiRunEdit(
        { start: 'r', end: 'i', loop: '_', data: 'e', code: 's', join: 'v', line: 'x', attr: 'h', cols: 'u' },
        ['l', 'c', 'o'],
      ),
    ],
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
  // Every file is checked before any is written, so a refusal changes nothing.
  const planned = PATCHES.map(({ file, edits }) => {
    const full = path.join(dir, file);
    let text = fs.readFileSync(full, 'utf8');
    let applied = 0;
    for (const [index, { from, to }] of edits.entries()) {
      if (count(text, to) === 1 && count(text, from) === 0) continue;
      if (count(text, from) !== 1 || count(text, to) !== 0) {
        throw new Error(
          `${full} does not hold the expected text of edit ${index + 1} exactly once: not patching it`,
        );
      }
      text = text.replace(from, to);
      applied++;
    }
    return { file, full, text, applied };
  });
  return planned.map(({ file, full, text, applied }) => {
    if (applied === 0) return `${file}: already patched`;
    if (check) return `${file}: not patched`;
    fs.writeFileSync(full, text);
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
