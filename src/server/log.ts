import * as fs from 'node:fs';

/** The server log: one line per entry, appended to a file in the state dir (and stderr in the foreground). */
export class Logger {
  private fd: number | undefined;

  constructor(
    file: string,
    private readonly toStderr: boolean,
  ) {
    this.fd = fs.openSync(file, 'a', 0o600);
  }

  private write(level: string, message: string): void {
    const line = `${new Date().toISOString()} ${level} ${message}\n`;
    if (this.fd !== undefined) fs.writeSync(this.fd, line);
    if (this.toStderr) process.stderr.write(line);
  }

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
