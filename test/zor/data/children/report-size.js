// Prints the pty's size, pixels included, at start and after every SIGWINCH, until it reads "q".
'use strict';
const { execFileSync } = require('node:child_process');

const READ = String.raw`my $get = $^O eq 'darwin' ? 0x40087468 : 0x5413; my $ws = "\0" x 8; ioctl(STDIN, $get, $ws) or exit 2; print join(' ', unpack('S4', $ws));`;
const report = () => {
  const size = execFileSync('perl', ['-e', READ], { stdio: [0, 'pipe', 'ignore'], encoding: 'utf8' });
  process.stdout.write(`size:${size}\n`);
};
process.stdin.setRawMode(true);
process.on('SIGWINCH', report);
report();
process.stdin.on('data', (data) => {
  if (data.includes('q')) process.exit(0);
  report();
});
