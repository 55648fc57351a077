import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The waits for a thread to settle, a run to reach a status and a subscription to answer live in
// test/support/ (docs/testing.md, "Tests on a loaded machine"); a suite that writes its own gets them wrong
// the way CI on a loaded machine finds out: reads in the wrong order, a status polled behind the
// API's back, a fixed sleep standing in for a condition.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SUPPORT = 'test/support/';
const ALLOW_DELAY = /deliberate delay:/i;

/** Reads of a run's status: its rows, the conversation's active run, the execution node. */
const RUN_STATUS = /\.execution\.(find\w*|count|groupBy)\b|\bactiveExecutionId\b|\bexecution\(/;
/** Reads of a thread's queue, or of its conversation for how its last reply ended: the makings of a settle. */
const SETTLE_READ = /\bqueue(Of)?\(|\.queueItem\.|\bQueueDocument\b|(\bconversation\(|\bConversationDocument\b)[^]*\.outcome\b/;
/** Names a suite's own wait for one of those would have, and the helpers' own (a copy must not shadow them). */
const WAIT_NAMES = [
  'settled?|isSettled|whenSettled|untilSettled|untilIdle',
  'waitFor(Settled?|Idle|Runs?|Running|Execution|Started?|Subscription|Ready)|until(Runs?|Running|Execution|Started)|running(In|On)',
  'settledConversation|threadsSettledInDatabase|activeExecutionOf|executionReaching|executionRowsReaching|firstSubscriptionAnswer',
];
const WAIT_NAME = new RegExp(`^(${WAIT_NAMES.join('|')})$`);

/** The test files: test/ (without the generated operations) and every src/ folder's __tests__. */
function testFiles(dir = ROOT, relative = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const name = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (['node_modules', 'generated', 'dist', '.git'].includes(entry.name) || name === 'test/gql') return [];
      if (relative === '' && !['test', 'src'].includes(entry.name)) return [];
      return testFiles(path.join(dir, entry.name), name);
    }
    const inTests = name.startsWith('test/') || name.includes('/__tests__/');
    return inTests && /\.(ts|tsx|mjs)$/.test(entry.name) ? [name] : [];
  });
}

/** The statement a node is part of: where a comment about it goes. */
function statementOf(node: ts.Node): ts.Node {
  let current = node;
  while (current.parent && !ts.isBlock(current.parent) && !ts.isSourceFile(current.parent) && !ts.isCaseClause(current.parent)) {
    current = current.parent;
  }
  return current;
}

function saysDeliberate(node: ts.Node, source: ts.SourceFile): boolean {
  const statement = statementOf(node);
  const comments = ts.getLeadingCommentRanges(source.text, statement.getFullStart()) ?? [];
  if (comments.some((range) => ALLOW_DELAY.test(source.text.slice(range.pos, range.end)))) return true;
  const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  return ALLOW_DELAY.test(source.text.split('\n')[line] ?? '');
}

/** Whether `name` is the resolve parameter of a `new Promise` executor around `node`. */
function resolvesPromise(name: string, node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && ts.isNewExpression(at.parent) && at.parent.expression.getText() === 'Promise') {
      const first = at.parameters[0]?.name;
      if (first && ts.isIdentifier(first) && first.text === name) return true;
    }
  }
  return false;
}

/** `setTimeout(resolve, ms)` or `setTimeout(() => resolve(), ms)` inside a promise: a sleep, nothing but time passing. */
function isBareDelay(call: ts.CallExpression): boolean {
  const [callback] = call.arguments;
  if (!callback) return false;
  if (ts.isIdentifier(callback)) return resolvesPromise(callback.text, call);
  if (!ts.isArrowFunction(callback) && !ts.isFunctionExpression(callback)) return false;
  const body = ts.isBlock(callback.body) && callback.body.statements.length === 1 ? callback.body.statements[0] : callback.body;
  const expression = body && ts.isExpressionStatement(body) ? body.expression : body;
  if (!expression || !ts.isCallExpression(expression) || !ts.isIdentifier(expression.expression)) return false;
  return resolvesPromise(expression.expression.text, call);
}

/** The name of a function a node defines (a declaration, a method, a variable holding one). */
function nameOf(node: ts.Node): string | null {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || !node.initializer) return null;
  return ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer) ? node.name.text : null;
}

const USE_RUN_WAIT = 'use activeExecutionOf, executionReaching or executionRowsReaching (test/support/waits.ts)';
const SAY_WHY = 'a delay that must let time pass says why in a "Deliberate delay:" comment';

/** Each wait of `file` that re-implements a support helper or sleeps instead of waiting, as `file:line what`. */
function waitProblems(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const inSupport = file.startsWith(SUPPORT);
  const problems: string[] = [];
  const report = (node: ts.Node, what: string) =>
    problems.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const probe = node.arguments[0]?.getText(source) ?? '';
      if (!inSupport && callee === 'eventually' && RUN_STATUS.test(probe)) {
        report(node, `polls a run's status: ${USE_RUN_WAIT}`);
      }
      if (!inSupport && callee === 'eventually' && SETTLE_READ.test(probe)) {
        report(node, 'waits for a thread to settle: use settledConversation or threadsSettledInDatabase, which read the queue first');
      }
      if (callee === 'setTimeout' && isBareDelay(node) && !saysDeliberate(node, source)) {
        report(node, `sleeps: wait for the condition instead (eventually, test/support/waits.ts); ${SAY_WHY}`);
      }
    }
    const importsSleep = ts.isImportDeclaration(node) && /^['"](node:)?timers\/promises['"]$/.test(node.moduleSpecifier.getText(source));
    if (importsSleep && !saysDeliberate(node, source)) report(node, `imports a sleep (timers/promises): wait for the condition instead; ${SAY_WHY}`);
    if (!inSupport && (ts.isWhileStatement(node) || ts.isDoStatement(node)) && RUN_STATUS.test(node.getText(source))) {
      report(node, `polls a run's status in a loop: ${USE_RUN_WAIT}`);
    }
    const name = nameOf(node);
    if (!inSupport && name && WAIT_NAME.test(name)) {
      report(node, `defines its own wait "${name}": use the one in test/support/ (docs/testing.md, "Tests on a loaded machine")`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

describe('waits in the test files', () => {
  it('every suite waits with the helpers of test/support/, and sleeps only where it says why', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('test/support/waits.ts');
    expect(files.flatMap((file) => waitProblems(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  describe('the check itself', () => {
    /** The lines of `text` the check reports. */
    const problemsIn = (text: string, file = 'test/api/example.test.ts') =>
      waitProblems(file, text).map((problem) => Number(problem.split(' ')[0]!.split(':')[1]));

    it('finds a run polled in the database or through the API, in eventually or a loop', () => {
      const text = [
        "await eventually(() => prisma.execution.findFirst({ where: { status: 'RUNNING' } }));",
        'await eventually(async () => (await conversation(server, token, id)).activeExecutionId);',
        "await eventually(async () => (await execution(server, token, id)).status === 'CANCELLED');",
        'while (!id) id = (await conversation(server, token, threadId)).activeExecutionId;',
      ].join('\n');
      expect(problemsIn(text)).toEqual([1, 2, 3, 4]);
    });

    it('finds a settle of its own: a queue read, in parallel or not, and a function named for it', () => {
      const text = [
        'await eventually(async () => { const [items, runs] = await Promise.all([prisma.queueItem.count(), count()]); return items + runs === 0; });',
        'async function settled(threadId: string) {}',
        'const runningIn = async (threadId: string) => null;',
        "await eventually(async () => messagesOf(await conversation(server, token, id)).at(-1)?.outcome === 'COMPLETED');",
      ].join('\n');
      expect(problemsIn(text)).toEqual([1, 2, 3, 4]);
    });

    it('finds a sleep without its reason, and lets a deliberate one, a timer and a scheduled action be', () => {
      const text = [
        'await new Promise((resolve) => setTimeout(resolve, 50));',
        'await new Promise((done) => { setTimeout(() => done(), 50); });',
        "import { setTimeout as pause } from 'node:timers/promises';",
        '// Deliberate delay: the stream must stay open while time passes.',
        'await new Promise((resolve) => setTimeout(resolve, 50));',
        'await new Promise((resolve, reject) => setTimeout(() => reject(new Error("late")), 50));',
        'setTimeout(() => socket.close(1006, ""), 20);',
        'const timer = setTimeout(resolve, 10);',
      ].join('\n');
      expect(problemsIn(text)).toEqual([1, 2, 3]);
    });

    it('lets test/support/ poll what its helpers poll, and a suite read a run once, or loop over its steps', () => {
      expect(problemsIn("await eventually(() => prisma.execution.findMany({ where: { threadId } }));", 'test/support/waits.ts')).toEqual([]);
      const text = [
        "expect(await prisma.execution.count({ where: { status: 'COMPLETED' } })).toBe(2);",
        'for (const step of steps) { const { activeExecutionId } = await conversation(server, token, threadId); }',
        'await eventually(() => follower.errors.length > 0, 10_000, "the subscription to end");',
        'const waitForOutcome = async (reply: string) => reply;',
      ].join('\n');
      expect(problemsIn(text)).toEqual([]);
    });
  });
});
