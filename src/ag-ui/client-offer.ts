import type { Context, Tool } from '@ag-ui/core';
import { InvalidInputError } from '../domain/errors.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ClientTurn } from '../runtime/client-tools.ts';
import { isToolName } from '../runtime/tools.ts';
import { storedClientKey } from './message-mapping.ts';

/** Bounds of what one request may offer a turn besides its message: they land in every model request of the turn. */
export const CLIENT_OFFER_LIMITS = {
  maxTools: 32,
  maxDescriptionChars: 2_000,
  maxParametersBytes: 16_384,
  maxSchemaDepth: 16,
  maxContextEntries: 32,
  maxContextChars: 16_000,
} as const;

// What providers accept as a function name; `__` is how Parley names a tool server's tools (`<server>__<tool>`).
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SUBSCHEMAS = ['additionalProperties', 'items', 'not', 'if', 'then', 'else'] as const;

/**
 * The request's frontend tools and context, checked: a tool's name is one a model can call and no
 * tool of Parley's (a built-in or a tool server's), its parameters an object JSON Schema; counts and
 * sizes are bounded. Refused as a whole (400) before anything changes.
 */
export function clientOfferOf(tools: readonly Tool[], context: readonly Context[]): ClientTurn {
  const limits = CLIENT_OFFER_LIMITS;
  if (tools.length > limits.maxTools) throw new InvalidInputError('tools', `at most ${limits.maxTools} frontend tools per request.`);
  const names = new Set<string>();
  const checked = tools.map((declared) => {
    const { name, description, parameters } = declared;
    if (!TOOL_NAME.test(name) || name.includes('__')) {
      throw new InvalidInputError('tools', `${JSON.stringify(name)} is no tool name: letters, digits, _ and - (at most 64, starting with a letter, no "__").`);
    }
    if (isToolName(name)) throw new InvalidInputError('tools', `${name} is a tool of Parley's own; name the frontend tool differently.`);
    if (names.has(name)) throw new InvalidInputError('tools', `${name} is declared twice.`);
    names.add(name);
    if (description.length > limits.maxDescriptionChars) throw new InvalidInputError('tools', `${name}: the description is over ${limits.maxDescriptionChars} characters.`);
    if (parameters === undefined || parameters === null) return { name, description };
    if (JSON.stringify(parameters).length > limits.maxParametersBytes) {
      throw new InvalidInputError('tools', `${name}: the parameters schema is over ${limits.maxParametersBytes} bytes.`);
    }
    const problem = schemaProblem(parameters, 0) ?? (isObject(parameters) && parameters.type !== undefined && parameters.type !== 'object' ? 'its type must be "object"' : null);
    if (problem) throw new InvalidInputError('tools', `${name}: the parameters are no JSON Schema of an object (${problem}).`);
    return { name, description, parameters };
  });
  if (context.length > limits.maxContextEntries) throw new InvalidInputError('context', `at most ${limits.maxContextEntries} entries per request.`);
  const contextChars = context.reduce((sum, entry) => sum + entry.description.length + entry.value.length, 0);
  if (contextChars > limits.maxContextChars) throw new InvalidInputError('context', `at most ${limits.maxContextChars} characters in all.`);
  return { tools: checked, context: context.map(({ description, value }) => ({ description, value })) };
}

/** Kept for the turn of the message `messageId` before it is queued, so the run finds it when it starts (on any instance). Sent again, the first offer stays. */
export async function saveClientOffer(prisma: PrismaClient, threadId: string, messageId: string, offer: ClientTurn): Promise<void> {
  if (offer.tools.length === 0 && offer.context.length === 0) return;
  const messageKey = storedClientKey(messageId);
  await prisma.agUiTurn.upsert({
    where: { threadId_messageKey: { threadId, messageKey } },
    create: { threadId, messageKey, tools: offer.tools as never, context: offer.context as never },
    update: {},
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What makes `schema` no JSON Schema (the keywords Parley reads structurally), or null. */
function schemaProblem(schema: unknown, depth: number): string | null {
  if (typeof schema === 'boolean') return null;
  if (!isObject(schema)) return 'a schema is an object';
  if (depth > CLIENT_OFFER_LIMITS.maxSchemaDepth) return `nested deeper than ${CLIENT_OFFER_LIMITS.maxSchemaDepth}`;
  const { type, required, enum: allowed } = schema;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (types.some((each) => typeof each !== 'string' || !JSON_TYPES.has(each))) return `unknown type ${JSON.stringify(type)}`;
  if (required !== undefined && (!Array.isArray(required) || required.some((each) => typeof each !== 'string'))) return '"required" is a list of names';
  if (allowed !== undefined && !Array.isArray(allowed)) return '"enum" is a list';
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) return `"${key}" maps names to schemas`;
    for (const sub of Object.values(map)) {
      const problem = schemaProblem(sub, depth + 1);
      if (problem) return problem;
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return `"${key}" is a list of schemas`;
    for (const sub of list) {
      const problem = schemaProblem(sub, depth + 1);
      if (problem) return problem;
    }
  }
  for (const key of SUBSCHEMAS) {
    if (schema[key] === undefined) continue;
    const problem = schemaProblem(schema[key], depth + 1);
    if (problem) return problem;
  }
  return null;
}
