import type { ToolName } from '../../runtime/tools.ts';
import { DEMO_FAILURE_REASONS, type DemoFailureReason } from './failures.ts';

/** The tool each command calls. */
export const DEMO_TOOL_NAMES = {
  approve: 'approve_action',
  ask: 'ask_user',
  delegate: 'delegate',
} as const satisfies Record<string, ToolName>;

export const DEMO_LIMITS = {
  maxSlowSeconds: 600,
  maxTokens: 100_000,
  maxQuotedChars: 1_000,
  slowCountPerSecond: 4,
} as const;

export interface DemoCommand {
  name: string;
  usage: string;
  description: string;
}

export const DEMO_COMMANDS: readonly DemoCommand[] = [
  {
    name: '/slow',
    usage: '/slow <seconds> [text]',
    description: `Streams the reply evenly over that many seconds (at most ${DEMO_LIMITS.maxSlowSeconds}), so Stop and steering can land meanwhile.`,
  },
  {
    name: '/fail',
    usage: '/fail <reason> [after <n>]',
    description: `Fails with that error reason (${DEMO_FAILURE_REASONS.join(', ')}), at once or after streaming n chunks.`,
  },
  {
    name: '/approve',
    usage: '/approve <text>',
    description: `Calls the ${DEMO_TOOL_NAMES.approve} tool, which needs approval, then answers with the decision.`,
  },
  {
    name: '/ask',
    usage: '/ask <question>',
    description: `Calls ${DEMO_TOOL_NAMES.ask}; the typed answer is quoted in the reply.`,
  },
  {
    name: '/delegate',
    usage: '/delegate <message>',
    description: 'Delegates the message (which may itself be a command) to a child execution and quotes its result.',
  },
  {
    name: '/tool',
    usage: '/tool <server/tool> <json input>',
    description:
      'Calls that tool of a tool server (the agent must have it), or a frontend tool an AG-UI client declared (by its bare name), with that input (a JSON object), then answers `Tool <name> returned: <text>` or `Tool <name> failed: <error>`.',
  },
  {
    name: '/tokens',
    usage: '/tokens <n> [over <seconds>]',
    description:
      `Streams exactly n chunks (at most ${DEMO_LIMITS.maxTokens}) and reports n output tokens, for benchmarks: as fast as the ` +
      `server takes them, or evenly over that many seconds (at most ${DEMO_LIMITS.maxSlowSeconds}), chunk i due at i·seconds/n.`,
  },
  {
    name: '/history',
    usage: '/history',
    description: 'Answers `History: <text 1> | <text 2> | …`: the texts of the user messages before this one, exactly as the model receives them (the active branch).',
  },
];

export type ParsedCommand =
  | { command: '/slow'; seconds: number; text: string | undefined }
  | { command: '/tokens'; count: number; seconds: number | undefined }
  | { command: '/fail'; reason: DemoFailureReason; after: number | undefined }
  | { command: '/approve'; action: string }
  | { command: '/ask'; question: string }
  | { command: '/delegate'; message: string }
  | { command: '/history' }
  | { command: '/tool'; tool: string; input: Record<string, unknown> }
  /** A known command given arguments it cannot take: the reply is this usage line. */
  | { command: 'misused'; usageLine: string };

function misused(commandName: string, detail?: string): ParsedCommand {
  const command = DEMO_COMMANDS.find((candidate) => candidate.name === commandName);
  return { command: 'misused', usageLine: `Usage: ${command?.usage ?? commandName}${detail ? ` (${detail})` : ''}` };
}

/** undefined for a plain message: no text, or not one of DEMO_COMMANDS. */
export function parseCommand(text: string | undefined): ParsedCommand | undefined {
  const match = text === undefined ? null : /^(\/[a-z]+)(?:\s+([\s\S]*))?$/i.exec(text);
  if (!match) return undefined;
  const name = match[1].toLowerCase();
  const args = (match[2] ?? '').trim();

  switch (name) {
    case '/slow': {
      const slowMatch = /^(\d+(?:\.\d+)?)(?:\s+([\s\S]+))?$/.exec(args);
      const seconds = slowMatch ? Number(slowMatch[1]) : Number.NaN;
      if (!(seconds >= 0 && seconds <= DEMO_LIMITS.maxSlowSeconds)) {
        return misused('/slow', `seconds from 0 to ${DEMO_LIMITS.maxSlowSeconds}`);
      }
      return { command: '/slow', seconds, text: slowMatch?.[2]?.trim() };
    }
    case '/tokens': {
      const tokensMatch = /^(\d+)(?:\s+over\s+(\d+(?:\.\d+)?))?$/i.exec(args);
      const count = tokensMatch ? Number(tokensMatch[1]) : Number.NaN;
      if (!(count <= DEMO_LIMITS.maxTokens)) return misused('/tokens', `n from 0 to ${DEMO_LIMITS.maxTokens}`);
      const seconds = tokensMatch?.[2] === undefined ? undefined : Number(tokensMatch[2]);
      if (seconds !== undefined && !(seconds <= DEMO_LIMITS.maxSlowSeconds)) {
        return misused('/tokens', `seconds from 0 to ${DEMO_LIMITS.maxSlowSeconds}`);
      }
      return { command: '/tokens', count, seconds };
    }
    case '/fail': {
      const failMatch = /^(\S+)(?:\s+after\s+(\d+))?$/i.exec(args);
      const reason = failMatch?.[1].toLowerCase() as DemoFailureReason | undefined;
      const after = failMatch?.[2] === undefined ? undefined : Number(failMatch[2]);
      if (!reason || !DEMO_FAILURE_REASONS.includes(reason) || (after ?? 0) > DEMO_LIMITS.maxTokens) {
        return misused('/fail', `reasons: ${DEMO_FAILURE_REASONS.join(', ')}`);
      }
      return { command: '/fail', reason, after };
    }
    case '/approve':
      return args ? { command: '/approve', action: args } : misused('/approve');
    case '/ask':
      return args ? { command: '/ask', question: args } : misused('/ask');
    case '/delegate':
      return args ? { command: '/delegate', message: args } : misused('/delegate');
    case '/history':
      return args ? misused('/history') : { command: '/history' };
    case '/tool': {
      // `<server>/<tool>` for a tool server's tool, a bare name for an AG-UI client's frontend tool.
      const toolMatch = /^([^\s/]+(?:\/\S+)?)(?:\s+([\s\S]+))?$/.exec(args);
      if (!toolMatch) return misused('/tool');
      let input: unknown = {};
      try {
        input = toolMatch[2] === undefined ? {} : JSON.parse(toolMatch[2]);
      } catch {
        return misused('/tool', 'the input must be a JSON object');
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return misused('/tool', 'the input must be a JSON object');
      return { command: '/tool', tool: toolMatch[1]!, input: input as Record<string, unknown> };
    }
    default:
      return undefined;
  }
}
