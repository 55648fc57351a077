import { jsonSchema, tool, type ToolSet } from 'ai';
import { ApplicationError } from '../errors/taxonomy.ts';

/** Tools an agent can be given by name (`Agent.tools`). */
export const TOOL_NAMES = ['approve_action', 'ask_user', 'delegate', 'demo_crash'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

export type DelegationResult = { ok: true; text: string } | { ok: false; error: string };

/** What tools may ask of the run they belong to. */
export interface ToolContext {
  /** Runs a child execution for the message; resolves with its reply or its failure (never throws for it). */
  delegate(message: string, toolCallId: string, signal: AbortSignal | undefined): Promise<DelegationResult>;
  /** False inside a delegated child: delegation does not nest. */
  canDelegate: boolean;
}

export function buildTools(names: readonly string[], context: ToolContext): ToolSet {
  const tools: ToolSet = {};
  for (const name of names) {
    if (name === 'demo_crash') {
      tools.demo_crash = tool({
        description: 'A tool that always crashes; the demo model calls it for `/fail application_error`.',
        inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
        execute: async (): Promise<string> => {
          throw new ApplicationError({
            message: 'demo_crash crashed on purpose',
            messageKey: 'error.tool_failed',
            messageParams: { tool: 'demo_crash' },
          });
        },
      });
    }
    if (name === 'approve_action') {
      tools.approve_action = tool({
        description: 'Performs an action the user must approve first.',
        inputSchema: jsonSchema<{ action: string }>({
          type: 'object',
          properties: { action: { type: 'string', description: 'What will be done once approved.' } },
          required: ['action'],
        }),
        needsApproval: true,
        execute: async (input) => ({ approved: true, action: input.action }),
      });
    }
    if (name === 'ask_user') {
      // No execute: the run suspends until the user answers (resolveSuspension or a typed message).
      tools.ask_user = tool({
        description: 'Asks the user a question and waits for the typed answer.',
        inputSchema: jsonSchema<{ question: string }>({
          type: 'object',
          properties: { question: { type: 'string' } },
          required: ['question'],
        }),
      });
    }
    if (name === 'delegate' && context.canDelegate) {
      tools.delegate = tool({
        description: 'Delegates a task to a sub-agent (a child execution) and returns its reply.',
        inputSchema: jsonSchema<{ message: string }>({
          type: 'object',
          properties: { message: { type: 'string', description: 'The task for the sub-agent.' } },
          required: ['message'],
        }),
        execute: (input, { toolCallId, abortSignal }) => context.delegate(input.message, toolCallId, abortSignal),
        // A failed child is a result the parent model can react to, not a crash of the parent.
        toModelOutput: ({ output }) =>
          output.ok ? { type: 'text', value: output.text } : { type: 'error-text', value: output.error },
      });
    }
  }
  return tools;
}
