import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * State belongs to an object that something constructs (a module, a plugin, a request's context),
 * so that two servers in one process, or two test files in one worker, never share it. The rule,
 * for code that runs when a module is loaded (outside every function, method, accessor,
 * constructor and instance field's initializer; a class's static fields and blocks count as
 * module code):
 *
 * 1. No `let` or `var`.
 * 2. No `new WeakMap` or `new WeakSet`: they exist to be filled later, which is a cache.
 * 3. No `new Map` or `new Set`, except a constant lookup table: the whole initializer of a `const`
 *    that is either declared `ReadonlySet<…>` or `ReadonlyMap<…>` (the compiler then refuses any
 *    change to it, wherever it is used), or is not exported and is only read in its file (`.has`,
 *    `.get`, `.size`, `.keys`, `.values`, `.entries`, `.forEach`, spread, `for … of`).
 */
const READS: ReadonlySet<string> = new Set(['has', 'get', 'size', 'keys', 'values', 'entries', 'forEach']);
const COLLECTIONS: ReadonlySet<string> = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const READONLY_TYPES: ReadonlySet<string> = new Set(['ReadonlySet', 'ReadonlyMap']);

/** Source files of src/, tests included, without the generated code. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Whether `node` runs only when something calls or constructs (a function's body, an instance field). */
function deferred(node: ts.Node): boolean {
  return (
    ts.isFunctionLike(node) ||
    (ts.isPropertyDeclaration(node) && !node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword))
  );
}

/** Each breach of the rule in one file, as `file:line what`. */
function moduleState({ name, text }: { name: string; text: string }): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${name}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (deferred(node)) return;
    if (ts.isVariableDeclarationList(node) && !(node.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing))) {
      report(node, `module-level ${node.flags & ts.NodeFlags.Let ? 'let' : 'var'}`);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && COLLECTIONS.has(node.expression.text)) {
      const kind = node.expression.text;
      if (kind.startsWith('Weak') || !isConstantLookupTable(node, source)) report(node, `module-level new ${kind}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `new Map`/`new Set` is the whole initializer of a const that is declared read-only, or unexported and only read. */
function isConstantLookupTable(creation: ts.NewExpression, source: ts.SourceFile): boolean {
  const declaration = creation.parent;
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer !== creation || !ts.isIdentifier(declaration.name)) return false;
  if (!(declaration.parent.flags & ts.NodeFlags.Const)) return false;
  const type = declaration.type;
  if (type && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && READONLY_TYPES.has(type.typeName.text)) return true;
  const statement = declaration.parent.parent;
  if (ts.isVariableStatement(statement) && statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) return false;
  const name = declaration.name.text;
  let onlyRead = true;
  const check = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === name && node !== declaration.name && !readOnly(node)) onlyRead = false;
    ts.forEachChild(node, check);
  };
  check(source);
  return onlyRead;
}

function readOnly(use: ts.Identifier): boolean {
  const parent = use.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === use) return READS.has(parent.name.text);
  if (ts.isSpreadElement(parent)) return true;
  return ts.isForOfStatement(parent) && parent.expression === use;
}

describe('module-level state in src/', () => {
  it('has none: no module-level let or var, no module-level cache, and Maps and Sets only as constant lookup tables', () => {
    const files = sourceFiles(SRC).map((file) => ({ name: path.relative(SRC, file), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(moduleState)).toEqual([]);
  });

  it('the check finds each kind, and spares state inside functions, instances and constant lookup tables', () => {
    const text = [
      'export let counter = 0;', // 1
      'var legacy = 2;', // 2
      'const cache = new WeakMap<object, string>();', // 3
      'const seen = new WeakSet<object>();', // 4
      'const byId = new Map<string, number>();', // 5
      'byId.set("a", 1);', // 6
      'export const shared = new Set(["a"]);', // 7
      'const nested = { inside: new Map() };', // 8
      'const passed = new Set(["x"]);', // 9
      'register(passed);', // 10
      'class Registry { static all = new Map(); items = new Map(); }', // 11
      'export const KINDS: ReadonlySet<string> = new Set(["a", "b"]);', // 12
      'const CODES = new Set(["E1"]);', // 13
      'const known = (code: string) => CODES.has(code) || [...CODES].length > 0;', // 14
      'function f() { let inner = 1; const local = new Map(); return inner + local.size; }', // 15
      'const g = () => { const memo = new WeakMap(); return memo; };', // 16
      'for (let i = 0; i < 1; i++) {}', // 17
    ].join('\n');
    expect(moduleState({ name: 'x.ts', text })).toEqual([
      'x.ts:1 module-level let',
      'x.ts:2 module-level var',
      'x.ts:3 module-level new WeakMap',
      'x.ts:4 module-level new WeakSet',
      'x.ts:5 module-level new Map',
      'x.ts:7 module-level new Set',
      'x.ts:8 module-level new Map',
      'x.ts:9 module-level new Set',
      'x.ts:11 module-level new Map',
      'x.ts:17 module-level let',
    ]);
  });
});
