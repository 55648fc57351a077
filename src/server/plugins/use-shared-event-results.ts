import { randomUUID } from 'node:crypto';
import {
  createSourceEventStream,
  execute,
  Kind,
  visit,
  type ASTNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import { isAsyncIterable, isPromise, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { RunEvent } from '../../events/subscriber-ledger.ts';

/**
 * Executes each live event once per instance for every subscription that selects the same thing,
 * instead of once per subscriber: the result is kept on the event's origin (the record the bus
 * handed to every subscriber of the thread) under the document, the variables its selection reads
 * and the event's cursor, and given to each subscriber as the same object. The event types'
 * resolvers read only the event, never the viewer, which is what makes sharing them safe; a
 * result with errors is never shared.
 *
 * Results that are shared are marked (see `isSharedResult`) so that a transport can serialize
 * them once as well.
 */
export function useSharedEventResults(): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribeSharingResults as never);
    },
  };
}

const sharedResults = new WeakSet<ExecutionResult>();

/** True for a result given, as this very object, to every subscriber that selected the same thing. */
export function isSharedResult(result: unknown): boolean {
  return typeof result === 'object' && result !== null && sharedResults.has(result as ExecutionResult);
}

type Outcome = ExecutionResult | Promise<ExecutionResult>;

const resultsByOrigin = new WeakMap<object, Map<string, Outcome>>();
/** A key for each document object (random, so nothing counts documents across the process). */
const documentKeys = new WeakMap<DocumentNode, string>();
const perEventVariables = new WeakMap<DocumentNode, string[]>();

async function subscribeSharingResults(args: ExecutionArgs) {
  const stream = await createSourceEventStream(args);
  if (!isAsyncIterable(stream)) return stream;
  const selection = selectionKey(args);
  const executeEvent = (event: unknown): Outcome => {
    const origin = originOf(event);
    if (!origin) return execute({ ...args, rootValue: event });
    const key = `${selection}\u0000${(event as RunEvent).cursor}`;
    const results = resultsByOrigin.get(origin) ?? new Map<string, Outcome>();
    const known = results.get(key);
    if (known) return known;
    resultsByOrigin.set(origin, results);
    const outcome = execute({ ...args, rootValue: event });
    if (isPromise(outcome)) {
      const pending = outcome.then((result) => {
        if (result.errors) results.delete(key);
        else sharedResults.add(result);
        return result;
      });
      results.set(key, pending);
      return pending;
    }
    if (!outcome.errors) {
      sharedResults.add(outcome);
      results.set(key, outcome);
    }
    return outcome;
  };
  // Its return() reaches the source at once, even while a next() waits (a quiet thread's stream
  // must end when its subscriber leaves).
  return mapAsyncIterator(stream, executeEvent);
}

/** The instance-wide record a live event was made from; null for anything else. */
function originOf(event: unknown): object | null {
  if (typeof event !== 'object' || event === null) return null;
  const { origin, cursor } = event as Partial<RunEvent>;
  return typeof origin === 'object' && origin !== null && typeof cursor === 'string' ? origin : null;
}

/** What decides a result besides the event: the document, the operation and the variables its selection reads. */
function selectionKey(args: ExecutionArgs): string {
  let id = documentKeys.get(args.document);
  if (id === undefined) {
    id = randomUUID();
    documentKeys.set(args.document, id);
  }
  let names = perEventVariables.get(args.document);
  if (!names) {
    names = variablesReadPerEvent(args.document);
    perEventVariables.set(args.document, names);
  }
  const values = names.map((name) => args.variableValues?.[name] ?? null);
  return `${id}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(values)}`;
}

/**
 * Variables used anywhere but in the root fields' arguments (read once, when the subscription
 * started): those in directives and below the root fields can change what each event yields.
 */
function variablesReadPerEvent(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) =>
    visit(node, {
      VariableDefinition: () => false,
      Variable: (variable) => {
        names.add(variable.name.value);
      },
    });
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) {
      collect(definition);
      continue;
    }
    for (const directive of definition.directives ?? []) collect(directive);
    for (const selection of definition.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) {
        collect(selection);
        continue;
      }
      for (const directive of selection.directives ?? []) collect(directive);
      if (selection.selectionSet) collect(selection.selectionSet);
    }
  }
  return [...names].sort();
}
