import { z } from 'zod';

/** zor's five states: an agent working, blocked on a question, idle, exited (its shell is back), or no agent. */
export const agentState = z.enum(['working', 'blocked', 'idle', 'exited', 'none']);
