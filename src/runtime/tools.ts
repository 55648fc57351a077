import { jsonSchema, tool, type Tool, type ToolSet } from 'ai';
import type { AttachmentRef } from '../conversation/parts.ts';
import { ApplicationError } from '../errors/taxonomy.ts';

export type DelegationResult = { ok: true; text: string } | { ok: false; error: string };

/** What tools may ask of the run they belong to. */
export interface ToolContext {
  /** Runs a child execution for the message; resolves with its reply or its failure (never throws for it). */
  delegate(message: string, toolCallId: string, signal: AbortSignal | undefined): Promise<DelegationResult>;
  /** False inside a delegated child: delegation does not nest. */
  canDelegate: boolean;
}

interface ToolDefinition {
  /** Withheld from delegated children: a child neither waits for the user nor delegates further. */
  rootOnly: boolean;
  /** undefined when the tool cannot be offered in this context. */
  build(context: ToolContext): Tool | undefined;
}

/** Every tool an agent can be given by name (`Agent.tools`), in the order they are listed to people. */
const TOOLS = {
  approve_action: {
    rootOnly: true,
    build: () =>
      tool({
        description: 'Performs an action the user must approve first.',
        inputSchema: jsonSchema<{ action: string }>({
          type: 'object',
          properties: { action: { type: 'string', description: 'What will be done once approved.' } },
          required: ['action'],
        }),
        needsApproval: true,
        execute: async (input) => ({ approved: true, action: input.action }),
      }),
  },
  ask_user: {
    rootOnly: true,
    // No execute: the run suspends until the user answers (resolveSuspension or a typed message).
    build: () =>
      tool({
        description: 'Asks the user a question and waits for the typed answer.',
        inputSchema: jsonSchema<{ question: string }>({
          type: 'object',
          properties: { question: { type: 'string' } },
          required: ['question'],
        }),
      }),
  },
  delegate: {
    rootOnly: true,
    build: (context) =>
      context.canDelegate
        ? tool({
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
          })
        : undefined,
  },
  demo_crash: {
    rootOnly: false,
    build: () =>
      tool({
        description: 'A tool that always crashes; the demo model calls it for `/fail application_error`.',
        inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
        execute: async (): Promise<string> => {
          throw new ApplicationError({
            message: 'demo_crash crashed on purpose',
            messageKey: 'error.tool_failed',
            messageParams: { tool: 'demo_crash' },
          });
        },
      }),
  },
} satisfies Record<string, ToolDefinition>;

export type ToolName = keyof typeof TOOLS;

/** The one built-in tool without `execute` (the user answers it); any other such tool is a client's frontend tool. */
export const QUESTION_TOOL: ToolName = 'ask_user';

export const TOOL_NAMES = Object.keys(TOOLS) as readonly ToolName[];

export const ROOT_ONLY_TOOLS: ReadonlySet<string> = new Set(TOOL_NAMES.filter((name) => TOOLS[name].rootOnly));

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name);
}

export function buildTools(names: readonly string[], context: ToolContext): ToolSet {
  const tools: ToolSet = {};
  for (const name of names) {
    if (!isToolName(name)) continue;
    const built = TOOLS[name].build(context);
    if (built) tools[name] = built;
  }
  return tools;
}

/**
 * What a tool of a tool server answers: its result or its failure as a value, so a failed call is
 * a result the model reacts to (the run goes on), never a crash of the run.
 */
export interface ToolOutcome {
  toolOutcome: true;
  ok: boolean;
  text: string;
  truncated: boolean;
  error: string | null;
  /** The result's files kept as attachments of the reply. */
  attachments: AttachmentRef[];
}

export function isToolOutcome(value: unknown): value is ToolOutcome {
  return typeof value === 'object' && value !== null && (value as { toolOutcome?: unknown }).toolOutcome === true;
}

/** What the runtime shows of a tool the model knows under another name (a tool server's `<server>/<tool>`). */
export interface ToolLabel {
  /** The name people see and policies use: `<server>/<tool>`. */
  name: string;
  /** Read-only or idempotent: a call interrupted by a crash may simply be made again. */
  safeToRepeat: boolean;
  /** What its approval card shows besides the input. */
  card?: { server: string; tool: string; description: string };
}

const MODEL_TOOL_NAME_MAX = 64;

/**
 * The name a model is given for `<server>/<tool>`: providers accept only letters, digits, `_` and `-`
 * (at most 64), so the slash becomes `__`. The demo model's `/tool` command uses it too.
 */
export function modelToolName(qualified: string): string {
  const name = qualified.replace('/', '__').replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MODEL_TOOL_NAME_MAX) return name;
  let hash = 0;
  for (const char of qualified) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${name.slice(0, MODEL_TOOL_NAME_MAX - 9)}_${hash.toString(16).padStart(8, '0')}`;
}
