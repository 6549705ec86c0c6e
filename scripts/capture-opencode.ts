import type { AgentCaptureContext } from './capture-claude';

export async function captureOpenCode(context: AgentCaptureContext): Promise<void> {
  throw new Error(`not yet ${context.size.cols}`);
}
