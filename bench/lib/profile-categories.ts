/**
 * Where a profile's sample (or sampled allocation) belongs, for bench/profile-summary.ts: the
 * location of a frame (node_modules package, Node.js internal module, or a file of src/ or bench/
 * relative to the checkout) and the kind of work of a whole stack (by its leaf, native leaves by the
 * frame that called them).
 */

/** `src/recording/run-recording.ts`, `graphql-ws`, `node:internal/webstreams/readablestream` … */
export function whereOf(url: string): string {
  if (!url) return '';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const local = /\/((?:src|bench|packages|scripts)\/.*)$/.exec(url)?.[1];
  if (local) return local;
  return url.replace(/^file:\/\//, '');
}

const PACKAGES: [RegExp, string][] = [
  [/^(ai|@ai-sdk\/.*)$/, 'AI SDK (streamText and its transforms)'],
  [/^(graphql|graphql-ws|graphql-yoga|@graphql-yoga\/.*|@envelop\/.*|@graphql-tools\/.*|@whatwg-node\/.*|@pothos\/.*|@escape\.tech\/.*|@repeaterjs\/.*)$/, 'GraphQL (graphql-js, Yoga, envelop, graphql-ws)'],
  [/^ws$/, 'ws (WebSocket frames)'],
  [/^(ioredis|redis-parser|denque|cluster-key-slot|@ioredis\/.*)$/, 'Redis client (ioredis)'],
  [/^(@prisma\/.*|\.prisma|pg|pg-protocol|pg-pool|pg-types|postgres-.*|@electric-sql\/.*)$/, 'database (Prisma, pg)'],
  [/^(pino|pino-.*|thread-stream|sonic-boom)$/, 'logging (pino)'],
  [/^@opentelemetry\/.*$/, 'tracing (OpenTelemetry)'],
  [/^(zod|zod-.*|@standard-schema\/.*)$/, 'validation (zod)'],
];

const INTERNALS: [RegExp, string][] = [
  [/^node:internal\/webstreams\//, 'web streams (the AI SDK\'s stream stages)'],
  [/^node:(internal\/)?async_(hooks|context_frame|local_storage)|^node:internal\/async_local_storage/, 'AsyncLocalStorage / async hooks'],
  [/^node:(internal\/)?timers/, 'timers'],
  [/^node:internal\/process\/(task_queues|promises)/, 'promise jobs / microtask queue'],
  [/^node:(net|_http|http|internal\/stream_base_commons|internal\/streams\/|internal\/http|stream)/, 'Node streams, sockets and HTTP'],
  [/^node:(events|internal\/event_target|internal\/abort_controller)/, 'events and AbortSignal'],
  [/^node:/, 'Node.js internals (other)'],
];

const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String']);

function kindOfFrame(url: string): string | null {
  const where = whereOf(url);
  if (!where) return null;
  // Parley's only WebAssembly on PostgreSQL is Prisma's query compiler.
  if (url.startsWith('wasm://')) return 'database (Prisma, pg)';
  if (where.startsWith('src/models/demo/')) return 'demo model (the fake provider)';
  if (where.startsWith('src/')) return `Parley ${where.split('/').slice(0, 2).join('/')}`;
  if (where.startsWith('bench/')) return 'bench instrumentation';
  for (const [pattern, kind] of PACKAGES) if (pattern.test(where)) return kind;
  for (const [pattern, kind] of INTERNALS) if (pattern.test(where)) return kind;
  if (/node_modules/.test(url)) return `package ${where}`;
  return where;
}

/** The kind of work of a stack (leaf first). */
export function categoryOf(stack: { functionName: string; url: string }[]): string {
  const leaf = stack[0]!;
  if (leaf.functionName === '(garbage collector)') return 'GC';
  if (leaf.functionName === '(program)') return '(program: V8 and native code outside JS)';
  if (leaf.functionName === '(root)') return '(root)';
  if (!leaf.url) {
    if (SOCKET_WRITES.has(leaf.functionName)) {
      // Whose write it is: the first client library on the stack (when the write was not deferred to a later tick).
      for (const frame of stack) {
        const where = whereOf(frame.url);
        if (/^(ioredis|redis-parser)$/.test(where)) return 'socket writes (native): Redis';
        if (where === 'ws') return 'socket writes (native): WebSocket';
        if (/^(pg|pg-protocol|@prisma\/.*)$/.test(where)) return 'socket writes (native): PostgreSQL';
        if (/^node:_http/.test(where)) return 'socket writes (native): HTTP';
      }
      return 'socket writes (native): caller not on the stack';
    }
    if (leaf.functionName === 'stringify') return 'JSON.stringify (native)';
    if (leaf.functionName === 'parse') return 'JSON.parse (native)';
    for (const frame of stack) {
      const kind = kindOfFrame(frame.url);
      if (kind) return kind;
    }
    return `(native) ${leaf.functionName}`;
  }
  return kindOfFrame(leaf.url) ?? leaf.url;
}
