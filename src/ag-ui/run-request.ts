import { contentHasMedia, contentToText, type Message, type ResumeEntry, type RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { InvalidInputError } from '../domain/errors.ts';

/** A `RunAgentInput` body as Parley reads it: its own thread id and the parts it acts on. */
export interface RunRequest {
  input: RunAgentInput;
  /** The Parley thread the AG-UI `threadId` names (a UUID, lower case). */
  threadId: string;
  messages: Message[];
  resume: ResumeEntry[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A body names its thread and messages; a message id also becomes the turn's idempotency key.
const MAX_ID_CHARS = 200;

/**
 * Checks the body against `@ag-ui/core`'s own `RunAgentInput` schema, then what Parley needs of it:
 * a thread id Parley can keep (a UUID, which `HttpAgent` makes by default), message ids it can use
 * as idempotency keys, and text-only user messages (files go through `sendMessage`).
 */
export function parseRunRequest(body: unknown): RunRequest {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw new InvalidInputError('body', `is not an AG-UI RunAgentInput (${issues.join('; ')}).`);
  }
  const input = parsed.data as RunAgentInput;
  if (!UUID.test(input.threadId)) {
    throw new InvalidInputError('threadId', 'must be a UUID: it names the Parley thread (HttpAgent makes one by default).');
  }
  for (const message of input.messages) {
    if (message.id.length === 0 || message.id.length > MAX_ID_CHARS) {
      throw new InvalidInputError('messages', `every message id must be 1 to ${MAX_ID_CHARS} characters.`);
    }
    if (message.role === 'user' && contentHasMedia(message.content)) {
      throw new InvalidInputError('messages', `message ${message.id} carries files; send files with sendMessage (GraphQL).`);
    }
  }
  return { input, threadId: input.threadId.toLowerCase(), messages: input.messages, resume: input.resume ?? [] };
}

/** The text of a user message, as the turn receives it. */
export function userText(message: Extract<Message, { role: 'user' }>): string {
  return contentToText(message.content);
}
