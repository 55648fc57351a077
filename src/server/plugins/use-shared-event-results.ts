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
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { isAsyncIterable, isPromise, type Plugin } from 'graphql-yoga';
import type { RunEvent } from '../../events/subscriber-ledger.ts';

type Outcome = ExecutionResult | Promise<ExecutionResult>;

/**
 * Executes each live event once per instance for every subscription that selects the same thing,
 * instead of once per subscriber: the result is kept on the event's origin (the record the bus
 * handed to every subscriber of the thread) under the document, the variables its selection reads
 * and the event's cursor, and given to each subscriber as the same object. The event types'
 * resolvers read only the event, never the viewer, which is what makes sharing them safe; a
 * result with errors is never shared.
 *
 * One per server (its Yoga and its WebSocket server share it): results that are shared are known
 * to it (see `isShared`) so that a transport can serialize them once as well. Everything it keeps
 * is keyed weakly by what it was made from, so it lasts as long as that does.
 */
export class SharedEventResults {
  private readonly shared = new WeakSet<ExecutionResult>();
  private readonly resultsByOrigin = new WeakMap<object, Map<string, Outcome>>();
  /** A key for each document object (random, so nothing counts documents across the process). */
  private readonly documentKeys = new WeakMap<DocumentNode, string>();
  private readonly perEventVariables = new WeakMap<DocumentNode, string[]>();
  private readonly compiled = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, CompiledQuery | null>>>();

  /** True for a result given, as this very object, to every subscriber that selected the same thing. */
  isShared(result: unknown): boolean {
    return typeof result === 'object' && result !== null && this.shared.has(result as ExecutionResult);
  }

  /** A subscription's execution, each event's result shared as the class says. */
  readonly subscribe = async (args: ExecutionArgs) => {
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return stream;
    const selection = this.selectionKey(args);
    const compiled = this.compiledFor(args);
    const executeOne = (event: unknown): Outcome => (compiled ? executeCompiled(compiled, args, event) : execute({ ...args, rootValue: event }));
    const executeEvent = (event: unknown): Outcome => {
      const origin = originOf(event);
      if (!origin) return executeOne(event);
      const key = `${selection}\u0000${(event as RunEvent).cursor}`;
      const results = this.resultsByOrigin.get(origin) ?? new Map<string, Outcome>();
      const known = results.get(key);
      if (known) return known;
      this.resultsByOrigin.set(origin, results);
      const outcome = executeOne(event);
      if (isPromise(outcome)) {
        const pending = outcome.then((result) => {
          if (result.errors) results.delete(key);
          else this.shared.add(result);
          return result;
        });
        results.set(key, pending);
        return pending;
      }
      if (!outcome.errors) {
        this.shared.add(outcome);
        results.set(key, outcome);
      }
      return outcome;
    };
    return eventsExecuted(stream[Symbol.asyncIterator](), executeEvent);
  };

  /**
   * The subscription's document compiled once (graphql-jit) for its events: executing an event then
   * builds no execution context, coerces no variables and collects no fields again (graphql-js
   * does all of that per event). Null where it does not compile: graphql-js executes those.
   */
  private compiledFor(args: ExecutionArgs): CompiledQuery | null {
    const bySchema = this.compiled.get(args.schema) ?? new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
    this.compiled.set(args.schema, bySchema);
    const byOperation = bySchema.get(args.document) ?? new Map<string, CompiledQuery | null>();
    bySchema.set(args.document, byOperation);
    const operation = args.operationName ?? '';
    if (!byOperation.has(operation)) {
      const compiled = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      byOperation.set(operation, isCompiledQuery(compiled) ? compiled : null);
    }
    return byOperation.get(operation) ?? null;
  }

  /** What decides a result besides the event: the document, the operation and the variables its selection reads. */
  private selectionKey(args: ExecutionArgs): string {
    let id = this.documentKeys.get(args.document);
    if (id === undefined) {
      id = randomUUID();
      this.documentKeys.set(args.document, id);
    }
    let names = this.perEventVariables.get(args.document);
    if (!names) {
      names = variablesReadPerEvent(args.document);
      this.perEventVariables.set(args.document, names);
    }
    const values = names.map((name) => args.variableValues?.[name] ?? null);
    return `${id}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(values)}`;
  }
}

/** Runs every subscription's per-event execution through `results` (see SharedEventResults). */
export function useSharedEventResults(results: SharedEventResults): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(results.subscribe as never);
    },
  };
}

/**
 * The source's events, each executed. Its return() reaches the source at once, even while a next()
 * waits (a quiet thread's stream must end when its subscriber leaves). A plain iterator: a chunk
 * costs one promise here, where a generic mapper chains several.
 */
function eventsExecuted(source: AsyncIterator<unknown>, executeEvent: (event: unknown) => Outcome): AsyncIterableIterator<ExecutionResult> {
  const executed = (step: IteratorResult<unknown>): IteratorResult<ExecutionResult> | Promise<IteratorResult<ExecutionResult>> => {
    if (step.done) return step as IteratorResult<ExecutionResult>;
    const outcome = executeEvent(step.value);
    return isPromise(outcome) ? outcome.then((value) => ({ done: false, value })) : { done: false, value: outcome };
  };
  return {
    next: () => source.next().then(executed),
    return: async (value?: unknown) => (source.return ? ((await source.return(value)) as IteratorResult<ExecutionResult>) : { done: true, value: undefined }),
    throw: async (error?: unknown) => {
      if (source.throw) return (await source.throw(error)) as IteratorResult<ExecutionResult>;
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * One event through the compiled document. A result with errors (or a compiled execution that
 * throws) is made again by graphql-js, so that what a client is told (messages, paths, locations)
 * is exactly what graphql-js says.
 */
function executeCompiled(compiled: CompiledQuery, args: ExecutionArgs, event: unknown): Outcome {
  const again = () => execute({ ...args, rootValue: event });
  const checked = (result: ExecutionResult): Outcome => (result.errors ? again() : result);
  let outcome: Outcome;
  try {
    outcome = compiled.query(event, args.contextValue, args.variableValues ?? {}) as Outcome;
  } catch {
    return again();
  }
  return isPromise(outcome) ? outcome.then(checked, again) : checked(outcome);
}

/** The instance-wide record a live event was made from; null for anything else. */
function originOf(event: unknown): object | null {
  if (typeof event !== 'object' || event === null) return null;
  const { origin, cursor } = event as Partial<RunEvent>;
  return typeof origin === 'object' && origin !== null && typeof cursor === 'string' ? origin : null;
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
