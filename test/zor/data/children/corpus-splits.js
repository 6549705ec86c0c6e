// Writes the escape corpus split at every byte (two writes, a moment apart so they arrive as two
// reads), each time followed by a screen that changes the testagent state, then waits for "q".
'use strict';
const { Buffer } = require('node:buffer');
const { setTimeout } = require('node:timers');
const { atoms } = require('../escape-corpus.json');

const corpus = Buffer.from(atoms.join(''), 'utf8');
const RULE = '─'.repeat(30);
const screens = [
  '\x1b[2J\x1b[H✶ Working on it…\n',
  `\x1b[2J\x1b[Hdone\n${RULE}\n❯ \n${RULE}\n`,
  `\x1b[2J\x1b[H${RULE}\n Pick one\n ❯ 1. A\n${RULE}\n Enter to select · Esc to cancel\n`,
];
const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

process.stdin.setRawMode(true);
(async () => {
  for (let split = 0; split <= corpus.length; split++) {
    process.stdout.write(corpus.subarray(0, split));
    await pause();
    process.stdout.write(corpus.subarray(split));
    process.stdout.write(screens[split % screens.length]);
    await pause();
  }
  process.stdout.write('end\n');
})();
process.stdin.on('data', (data) => {
  if (data.includes('q')) process.exit(0);
});
