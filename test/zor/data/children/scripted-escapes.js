// A child for the passthrough test: every escape-sequence class, a sequence split across two
// writes (the second half sent when the test types "c"), and a DA query whose reply it reports.
'use strict';
const { Buffer } = require('node:buffer');
process.stdin.setRawMode(true);

const write = (text) => process.stdout.write(text);

write('\x1b[1;31mred\x1b[0m plain\n');
write('\x1b]0;child title\x07');
write('\x1b]2;other title\x1b\\');
write('\x1bP+q544e\x1b\\');
// The activity line makes zor want to announce "working" while the stream is mid-sequence.
write('✶ Working on it…\n\x1b[3');

let phase = 'split';
let reply = '';
process.stdin.on('data', (data) => {
  const text = data.toString('latin1');
  if (phase === 'split' && text.includes('c')) {
    write('8;5;1mX\x1b[0m\n');
    phase = 'query';
    write('\x1b[c');
  } else if (phase === 'query') {
    reply += text;
    if (reply.endsWith('c')) {
      write(`reply:${Buffer.from(reply, 'latin1').toString('hex')}\n`);
      write('bye\n');
      phase = 'done';
    }
  } else if (phase === 'done' && text.includes('q')) {
    process.exit(0);
  }
});
