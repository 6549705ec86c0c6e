/** The process table for the platform zor runs on. */
import { LinuxProcTable } from './linux-proc-table';
import { MacPsTable } from './macos-ps-table';
import type { ProcessTable } from './process-table';

export function platformProcessTable(platform: NodeJS.Platform = process.platform): ProcessTable | undefined {
  if (platform === 'linux' || platform === 'android') return new LinuxProcTable();
  if (platform === 'darwin') return new MacPsTable();
  return undefined;
}
