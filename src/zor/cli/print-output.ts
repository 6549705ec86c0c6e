import type { CommandOutput } from './command-output';

/** Writes a command's output and sets its exit code (without cutting stdout short with process.exit). */
export function printOutput(output: CommandOutput): void {
  for (const line of output.stdout) process.stdout.write(line + '\n');
  for (const line of output.stderr) process.stderr.write(line + '\n');
  process.exitCode = output.exitCode;
}
