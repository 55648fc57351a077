import { GraphQLError, Kind, type ASTNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Why a string is refused: PostgreSQL stores neither NUL nor half of a UTF-16 surrogate pair. */
export function unsafeCharacterIn(value: string): 'a NUL character' | 'an unpaired surrogate' | null {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code === 0) return 'a NUL character';
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
      else return 'an unpaired surrogate';
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return 'an unpaired surrogate';
    }
  }
  return null;
}

export interface UnsafeString {
  /** Where it is: `$variable.path[0]` for a variable, the argument (and input field) for a literal. */
  where: string;
  reason: string;
}

/**
 * The first string in the variables or in the document's literals that the database would refuse.
 * Every value and node is visited once, with an explicit stack, so the cost is linear in the input
 * and no nesting can overflow the call stack.
 */
export function findUnsafeString(document: DocumentNode, variables: unknown): UnsafeString | null {
  return findInVariables(variables) ?? findInDocument(document);
}

function findInVariables(variables: unknown): UnsafeString | null {
  if (!variables || typeof variables !== 'object') return null;
  const stack: { value: unknown; where: string }[] = Object.entries(variables).map(([name, value]) => ({
    value,
    where: `$${name}`,
  }));
  while (stack.length > 0) {
    const { value, where } = stack.pop()!;
    if (typeof value === 'string') {
      const reason = unsafeCharacterIn(value);
      if (reason) return { where, reason };
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, where: `${where}[${index}]` }));
    } else if (isBinary(value)) {
      // An uploaded file: its name and type are strings the client chose; its bytes are not text.
      const { name, type } = value as { name?: unknown; type?: unknown };
      if (typeof name === 'string') stack.push({ value: name, where: `${where}.name` });
      if (typeof type === 'string') stack.push({ value: type, where: `${where}.type` });
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) stack.push({ value: item, where: `${where}.${key}` });
    }
  }
  return null;
}

/**
 * Bytes, not text: a typed array, an ArrayBuffer or Buffer, or a Blob or File by its shape (the
 * upload library's File is not an instance of this realm's Blob). Walking one would visit every
 * byte.
 */
export function isBinary(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  if (value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  if (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer) return true;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.size === 'number' &&
    (typeof candidate.arrayBuffer === 'function' || typeof candidate.stream === 'function' || typeof candidate.slice === 'function')
  );
}

function findInDocument(document: DocumentNode): UnsafeString | null {
  const stack: { node: ASTNode; where: string }[] = [{ node: document, where: '' }];
  while (stack.length > 0) {
    const { node, where } = stack.pop()!;
    switch (node.kind) {
      case Kind.STRING: {
        const reason = unsafeCharacterIn(node.value);
        if (reason) return { where: where || 'a string literal', reason };
        break;
      }
      case Kind.ARGUMENT:
        stack.push({ node: node.value, where: node.name.value });
        break;
      case Kind.OBJECT_FIELD:
        stack.push({ node: node.value, where: where ? `${where}.${node.name.value}` : node.name.value });
        break;
      default:
        for (const child of childNodes(node)) stack.push({ node: child, where });
    }
  }
  return null;
}

/** The AST nodes directly below a node (every key of an AST node holds a node, a list of them, or a scalar). */
function* childNodes(node: ASTNode): Generator<ASTNode> {
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === 'object' && 'kind' in item) yield item as ASTNode;
    } else if (value && typeof value === 'object' && 'kind' in value) {
      yield value as ASTNode;
    }
  }
}

export function unsafeStringError({ where, reason }: UnsafeString): GraphQLError {
  return new GraphQLError(`${where}: contains ${reason}, which Parley does not accept in text.`, {
    extensions: { code: 'BAD_USER_INPUT', argument: where },
  });
}

/**
 * Refuses an operation whose variables or string literals carry a NUL or an unpaired surrogate,
 * before any resolver runs: such text would otherwise reach PostgreSQL and fail there as an
 * internal error. Covers queries, mutations and subscriptions over HTTP, SSE and WebSocket.
 */
export function useInputHygiene(): Plugin {
  const check = (args: { document: DocumentNode; variableValues?: unknown }) => {
    const unsafe = findUnsafeString(args.document, args.variableValues);
    return unsafe ? { errors: [unsafeStringError(unsafe)] } : null;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution(refused);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = check(args);
      if (refused) setResultAndStopExecution(refused);
    },
  };
}
