import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import type { VisibleNodeType } from '../auth/access.ts';
import { InvalidInputError, NotFoundError } from '../domain/errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A budget and a share link are addressed by global ids too, but read only through their project or thread (`node(id)` does not find them). */
export type NodeTypeName = VisibleNodeType | 'Budget' | 'ShareLink';

/** How a not-found answer names each type: the same words the services use for it. */
const NOT_FOUND_LABELS: Record<NodeTypeName, string> = {
  User: 'User',
  Project: 'Project',
  Agent: 'Agent',
  Thread: 'Thread',
  Message: 'Message',
  Execution: 'Execution',
  QueueItem: 'Queued message',
  Suspension: 'Suspension',
  ToolServer: 'ToolServer',
  Budget: 'Budget',
  ShareLink: 'ShareLink',
};

/** Accepts a Relay global id of the expected type, or the raw id the CLI prints. */
export function decodeId(field: string, value: string, expected: NodeTypeName): string {
  if (UUID.test(value)) return value.toLowerCase();
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(value);
  } catch {
    throw new InvalidInputError(field, `"${value.slice(0, 80)}" is not a valid id.`);
  }
  if (!decoded.typename || !UUID.test(decoded.id)) {
    throw new InvalidInputError(field, `"${value.slice(0, 80)}" is not a valid id.`);
  }
  if (decoded.typename !== expected) throw new NotFoundError(NOT_FOUND_LABELS[expected], value);
  return decoded.id.toLowerCase();
}

/** The id in argument `name` (a node of type `expected`); a malformed one is reported under that argument. */
export function decodeIdArg<Name extends string>(
  args: { readonly [K in NoInfer<Name>]: string },
  name: Name,
  expected: NodeTypeName,
): string {
  return decodeId(name, args[name], expected);
}

/** The ids in list argument `name`, each a node of type `expected`. */
export function decodeIdListArg<Name extends string>(
  args: { readonly [K in NoInfer<Name>]: readonly string[] },
  name: Name,
  expected: NodeTypeName,
): string[] {
  return args[name].map((id) => decodeId(name, id, expected));
}

export function encodeId(type: NodeTypeName, id: string): string {
  return encodeGlobalID(type, id);
}

export function encodeOptionalId(type: NodeTypeName, id: string | null | undefined): string | null {
  return id ? encodeGlobalID(type, id) : null;
}
