import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';

/** A frontend tool an AG-UI client declared for a turn (checked by src/ag-ui/client-offer.ts). */
export interface ClientToolDeclaration {
  name: string;
  description: string;
  /** A JSON Schema of the arguments (an object schema); absent means none. */
  parameters?: unknown;
}

/** A piece of ambient information an AG-UI client gave a turn (`RunAgentInput.context`). */
export interface ClientContextEntry {
  description: string;
  value: string;
}

/** What a client offered one turn besides its message. */
export interface ClientTurn {
  tools: ClientToolDeclaration[];
  context: ClientContextEntry[];
}

const NO_ARGUMENTS: JSONSchema7 = { type: 'object', properties: {} };

/**
 * The client's tools as the model is offered them: without `execute`, so a call to one is left
 * unanswered and the run suspends on it until the client sends the result.
 */
export function clientToolSet(turn: ClientTurn | null): { tools: ToolSet; names: ReadonlySet<string> } {
  const tools: ToolSet = {};
  for (const declared of turn?.tools ?? []) {
    tools[declared.name] = tool({ description: declared.description, inputSchema: jsonSchema((declared.parameters as JSONSchema7) ?? NO_ARGUMENTS) });
  }
  return { tools, names: new Set(Object.keys(tools)) };
}

/** The agent's system prompt with the client's context for this turn after it, marked as the client's. */
export function withClientContext(system: string, turn: ClientTurn | null): string {
  const entries = turn?.context ?? [];
  if (entries.length === 0) return system;
  const lines = entries.map((entry) => `- ${entry.description}: ${entry.value}`);
  return [system, `Context from the user's application for this turn:\n${lines.join('\n')}`].filter(Boolean).join('\n\n');
}
