import { z } from 'zod';

/** zor's four states: an agent working, blocked on a question, idle, or no agent in the pane. */
export const agentState = z.enum(['working', 'blocked', 'idle', 'none']);
