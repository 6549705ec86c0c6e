import * as fs from 'node:fs';

/**
 * The server log: one line per entry, appended to a file in the state dir (and stderr in the
 * foreground). It takes the file opened (openServerLog, which says why if it cannot be) and closes it.
 */
export class Logger {
  constructor(
    private fd: number | undefined,
    private readonly toStderr: boolean,
  ) {}

  private write(level: string, message: string): void {
    const line = `${new Date().toISOString()} ${level} ${message}\n`;
    try {
      if (this.fd !== undefined) fs.writeSync(this.fd, line);
    } catch {
      // A full disk loses log lines; it must not take the server (and every session) down with it.
    }
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
