import { jsonSchema, tool, type ToolSet } from 'ai';
import { ApplicationError } from '../errors/taxonomy.ts';

/** Tools an agent can be given by name (`Agent.tools`). */
export const TOOL_NAMES = ['demo_crash'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

export function buildTools(names: readonly string[]): ToolSet {
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
  }
  return tools;
}
