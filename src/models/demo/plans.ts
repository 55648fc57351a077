import { modelToolName } from '../../runtime/tools.ts';
import { DEMO_LIMITS, DEMO_TOOL_NAMES, parseCommand } from './commands.ts';
import { describeDemoFailure, type DemoMidStreamFailure } from './failures.ts';
import { approvalGranted, findOutcome, outcomeSucceeded, outcomeValue, type PromptView } from './prompt.ts';

/*
 * What a run streams and which tool it calls (all text is streamed as word chunks, see
 * splitIntoWordChunks):
 *   plain text          reasoning "Plain message without a command: quoting it back."
 *                       then `You said: "<text>"` (+ ` (N attachment[s])`)
 *   /slow s [text]      `You said: "<text>"`, or `Counting: 1 2 … n` (n = ceil(4·s)) without
 *                       text; chunk i is sent at i·s/chunks seconds, finish at s seconds
 *   /tokens n [over s]  exactly n chunks `t1 `, `t2 `, … `tn `; over s seconds: chunk i at i·s/n
 * A paced chunk is due at the stream's start plus i·interval, not one interval after the chunk
 * before: a busy server shows as lateness, as with a provider's network stream, not as a slower model.
 *   /fail r [after n]   see describeDemoFailure; the n chunks are `t1 ` … `tn `
 *   /approve text       tool call approve_action {action} → `Approved: <text>` | `Not approved: <text>`
 *   /ask question       tool call ask_user {question}   → `You answered: "<answer>"` | `No answer was given.`
 *   /delegate message   tool call delegate {message}    → `The delegate replied: "<result>"` | `The delegate failed: <error>`
 *   /history            `History: <text 1> | <text 2> | …`, the earlier user texts of the prompt (unquoted, uncut),
 *                       led by `[summary] <summary>` when a summary leads the prompt
 *   a summary request   `Summary: <summary before>; <text 1>; <text 2> …`: the summary the range began with, if
 *                       any, and its user texts (src/models/summary-request.ts)
 *   /tool s/t {json}    tool call of s/t (as the model knows it, modelToolName) → `Tool s/t returned: <text>` |
 *                       `Tool s/t failed: <error>` (a denied approval: `Tool s/t failed: the call was not approved.`)
 */

const PLAIN_REASONING = 'Plain message without a command: quoting it back.';

export interface DemoPlan {
  reasoning?: string;
  textChunks: string[];
  /** Chunk i is due at the stream's start + i·interval; the finish part one interval after the last chunk. */
  chunkIntervalMs: number;
  toolCall?: { toolCallId: string; toolName: string; input: Record<string, unknown> };
  failure?: { before: 'output'; createError: () => Error } | { before: 'finish'; midStream: DemoMidStreamFailure; createError: () => Error };
}

export interface PlanContext {
  modelId: string;
  stream: boolean;
  availableTools: ReadonlySet<string>;
}

/** Splits on words, keeping the whitespace, so the chunks concatenate to the text. */
export function splitIntoWordChunks(text: string): string[] {
  const chunks = text.match(/\s*\S+\s*/g);
  return chunks ?? (text ? [text] : []);
}

function numberedTokens(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `t${index + 1} `);
}

function quote(text: string): string {
  const limit = DEMO_LIMITS.maxQuotedChars;
  return `"${text.length > limit ? `${text.slice(0, limit)}…` : text}"`;
}

function textPlan(text: string, chunkIntervalMs = 0): DemoPlan {
  return { textChunks: splitIntoWordChunks(text), chunkIntervalMs };
}

function plainReply(view: PromptView): DemoPlan {
  if (view.userText === undefined) {
    return textPlan('Hello! Send me a message, or a command such as /slow 3 or /ask <question>.');
  }
  const attachments =
    view.attachmentCount === 0 ? '' : ` (${view.attachmentCount} attachment${view.attachmentCount === 1 ? '' : 's'})`;
  return { ...textPlan(`You said: ${quote(view.userText)}${attachments}`), reasoning: PLAIN_REASONING };
}

/** A summary request's answer: what the summarised range held, shorter (its user texts only). */
function summaryPlan(view: PromptView): DemoPlan {
  const earlier = view.summary ? [view.summary.replace(/^Summary: /, '')] : [];
  return textPlan(`Summary: ${[...earlier, ...view.earlierUserTexts].join('; ')}`);
}

export function planFor(view: PromptView, context: PlanContext): DemoPlan {
  if (view.summaryRequested) return summaryPlan(view);
  const command = parseCommand(view.userText);
  if (!command) return plainReply(view);

  const nextToolCallId = `call_demo_${view.userMessageCount}_${view.toolCallCount + 1}`;
  const callTool = (toolName: string, input: Record<string, unknown>, leadingChunks: string[] = []): DemoPlan => ({
    textChunks: leadingChunks,
    chunkIntervalMs: 0,
    toolCall: { toolCallId: nextToolCallId, toolName, input },
  });
  const toolMissing = (toolName: string, shownName = toolName): DemoPlan | undefined =>
    context.availableTools.has(toolName) ? undefined : textPlan(`The tool ${shownName} is not available to this agent.`);

  switch (command.command) {
    case 'misused':
      return textPlan(command.usageLine);
    case '/slow': {
      const count = Math.max(1, Math.ceil(command.seconds * DEMO_LIMITS.slowCountPerSecond));
      const reply = command.text
        ? `You said: ${quote(command.text)}`
        : `Counting: ${Array.from({ length: count }, (_, index) => index + 1).join(' ')}`;
      const chunks = splitIntoWordChunks(reply);
      return { textChunks: chunks, chunkIntervalMs: (command.seconds * 1000) / chunks.length };
    }
    case '/tokens':
      return {
        textChunks: numberedTokens(command.count),
        chunkIntervalMs: command.seconds && command.count > 0 ? (command.seconds * 1000) / command.count : 0,
      };
    case '/history':
      return textPlan(`History: ${[...(view.summary ? [`[summary] ${view.summary}`] : []), ...view.earlierUserTexts].join(' | ')}`);
    case '/fail': {
      const failure = describeDemoFailure(command.reason, context.modelId, context.stream);
      const leadingChunks = numberedTokens(command.after ?? 0);
      if (failure.via === 'tool') {
        const outcome = findOutcome(view, failure.toolName);
        if (!outcome) return callTool(failure.toolName, failure.input, leadingChunks);
        return textPlan(
          outcomeSucceeded(outcome.output)
            ? `The tool ${failure.toolName} returned: ${outcomeValue(outcome.output)}`
            : `The tool ${failure.toolName} failed: ${outcomeValue(outcome.output)}`,
        );
      }
      if (command.after === undefined) {
        return { textChunks: [], chunkIntervalMs: 0, failure: { before: 'output', createError: failure.createError } };
      }
      return {
        textChunks: leadingChunks,
        chunkIntervalMs: 0,
        failure: { before: 'finish', midStream: failure.midStream, createError: failure.createError },
      };
    }
    case '/approve': {
      const denied = view.approvalDeniedAfterUser;
      const outcome = findOutcome(view, DEMO_TOOL_NAMES.approve);
      if (!outcome && !denied) {
        return toolMissing(DEMO_TOOL_NAMES.approve) ?? callTool(DEMO_TOOL_NAMES.approve, { action: command.action });
      }
      const granted = !denied && outcome !== undefined && approvalGranted(outcome.output);
      return textPlan(`${granted ? 'Approved' : 'Not approved'}: ${command.action}`);
    }
    case '/ask': {
      const outcome = findOutcome(view, DEMO_TOOL_NAMES.ask);
      if (!outcome) {
        return toolMissing(DEMO_TOOL_NAMES.ask) ?? callTool(DEMO_TOOL_NAMES.ask, { question: command.question });
      }
      return textPlan(
        outcomeSucceeded(outcome.output) ? `You answered: ${quote(outcomeValue(outcome.output))}` : 'No answer was given.',
      );
    }
    case '/tool': {
      const modelName = modelToolName(command.tool);
      const outcome = findOutcome(view, modelName);
      if (view.approvalDeniedAfterUser || outcome?.output.type === 'execution-denied') {
        return textPlan(`Tool ${command.tool} failed: the call was not approved.`);
      }
      if (!outcome) return toolMissing(modelName, command.tool) ?? callTool(modelName, command.input);
      return textPlan(
        outcomeSucceeded(outcome.output)
          ? `Tool ${command.tool} returned: ${outcomeValue(outcome.output)}`
          : `Tool ${command.tool} failed: ${outcomeValue(outcome.output)}`,
      );
    }
    case '/delegate': {
      const outcome = findOutcome(view, DEMO_TOOL_NAMES.delegate);
      if (!outcome) {
        return (
          toolMissing(DEMO_TOOL_NAMES.delegate) ?? callTool(DEMO_TOOL_NAMES.delegate, { message: command.message })
        );
      }
      return textPlan(
        outcomeSucceeded(outcome.output)
          ? `The delegate replied: ${quote(outcomeValue(outcome.output))}`
          : `The delegate failed: ${outcomeValue(outcome.output)}`,
      );
    }
  }
}
