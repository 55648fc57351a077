import type { JSONValue, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import { SUMMARY_HEADING, SUMMARY_INSTRUCTIONS } from '../summary-request.ts';

// The demo model only looks at the LAST user message of the prompt and at the tool results
// that follow it, so the same conversation always produces the same output.

export interface ToolOutcome {
  toolName: string;
  output: LanguageModelV3ToolResultOutput;
}

export interface PromptView {
  /** undefined when the prompt has no user message at all */
  userText: string | undefined;
  attachmentCount: number;
  userMessageCount: number;
  /** The texts of the user messages before the last one, in order, as the prompt has them. */
  earlierUserTexts: string[];
  toolCallCount: number;
  outcomesAfterUser: ToolOutcome[];
  approvalDeniedAfterUser: boolean;
  wordCount: number;
  /** The summary that leads a compacted history (without its heading). */
  summary: string | undefined;
  /** Whether this is a summary request (its system prompt is SUMMARY_INSTRUCTIONS). */
  summaryRequested: boolean;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function toolOutputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return jsonText(output.value);
    case 'execution-denied':
      return output.reason ?? '';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : '')).join(' ');
  }
}

export function readPrompt(prompt: LanguageModelV3Prompt): PromptView {
  let lastUserIndex = -1;
  prompt.forEach((message, index) => {
    if (message.role === 'user') lastUserIndex = index;
  });

  const view: PromptView = {
    userText: undefined,
    attachmentCount: 0,
    userMessageCount: 0,
    earlierUserTexts: [],
    toolCallCount: 0,
    outcomesAfterUser: [],
    approvalDeniedAfterUser: false,
    wordCount: 0,
    summary: undefined,
    summaryRequested: false,
  };

  prompt.forEach((message, index) => {
    const afterUser = index > lastUserIndex;
    if (message.role === 'system') {
      view.wordCount += countWords(message.content);
      if (message.content === SUMMARY_INSTRUCTIONS) view.summaryRequested = true;
      if (message.content.startsWith(SUMMARY_HEADING)) view.summary = message.content.slice(SUMMARY_HEADING.length).trim();
      return;
    }
    if (message.role === 'user') {
      view.userMessageCount += 1;
      const text = message.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .filter(Boolean)
        .join('\n');
      view.wordCount += countWords(text);
      if (index !== lastUserIndex) view.earlierUserTexts.push(text);
      if (index === lastUserIndex) {
        view.userText = text.trim();
        view.attachmentCount = message.content.filter((part) => part.type === 'file').length;
      }
      return;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          view.wordCount += countWords(part.text);
          break;
        case 'tool-call':
          view.toolCallCount += 1;
          view.wordCount += countWords(jsonText(part.input));
          break;
        case 'tool-result':
          view.wordCount += countWords(toolOutputText(part.output));
          if (afterUser) view.outcomesAfterUser.push({ toolName: part.toolName, output: part.output });
          break;
        case 'tool-approval-response':
          if (afterUser && !part.approved) view.approvalDeniedAfterUser = true;
          break;
        default:
          break;
      }
    }
  });
  return view;
}

/** Picks a readable value out of a tool's JSON result without knowing its exact shape. */
function readableValue(value: JSONValue | undefined): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of ['answer', 'text', 'result', 'reply', 'output', 'message']) {
      const field = value[key];
      if (typeof field === 'string') return field;
    }
  }
  return jsonText(value ?? null);
}

export function outcomeSucceeded(output: LanguageModelV3ToolResultOutput): boolean {
  return output.type === 'text' || output.type === 'json' || output.type === 'content';
}

export function outcomeValue(output: LanguageModelV3ToolResultOutput): string {
  if (output.type === 'json' || output.type === 'error-json') return readableValue(output.value);
  return toolOutputText(output);
}

export function approvalGranted(output: LanguageModelV3ToolResultOutput): boolean {
  if (!outcomeSucceeded(output)) return false;
  if (output.type === 'json' && output.value && typeof output.value === 'object' && !Array.isArray(output.value)) {
    const { approved, decision } = output.value;
    if (typeof approved === 'boolean') return approved;
    if (typeof decision === 'string') return !/^(deny|denied|reject|rejected|no)\b/i.test(decision);
  }
  return !/^(deny|denied|rejected|not approved|no)\b/i.test(outcomeValue(output).trim());
}

export function findOutcome(view: PromptView, toolName: string): ToolOutcome | undefined {
  return view.outcomesAfterUser.findLast((outcome) => outcome.toolName === toolName);
}
