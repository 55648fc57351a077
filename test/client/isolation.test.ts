import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The shipped client runs in browsers and other people's servers: it may import graphql,
// graphql-ws, React (for its hooks only) and its own files, and nothing of the server. The
// reference web chat (web/) may import only that client, React and its own files.

const packageRoot = path.resolve(import.meta.dirname, '../../packages/client');
const sourceRoot = path.join(packageRoot, 'src');
const ALLOWED_PACKAGES = new Set(['graphql', 'graphql-ws', 'react', '@graphql-typed-document-node/core']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module a file imports or re-exports, static or dynamic, types included. */
function importsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? Boolean(node.importClause?.isTypeOnly) : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      found.push({ specifier: argument && ts.isStringLiteral(argument) ? argument.text : '<computed>', typeOnly: false });
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require') {
      found.push({ specifier: '<require>', typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function packageName(specifier: string): string {
  const [first, second] = specifier.split('/');
  return specifier.startsWith('@') ? `${first}/${second}` : first!;
}

describe('the client package stands alone', () => {
  const files = sourceFiles(sourceRoot);

  it('has its sources', () => {
    expect(files.map((file) => path.relative(sourceRoot, file))).toEqual(
      expect.arrayContaining(['index.ts', 'client.ts', 'transport.ts', 'session.ts', 'actions.ts', 'query.ts', 'thread-state.ts', 'react.ts', 'documents.ts', 'gql/graphql.ts']),
    );
  });

  it('imports only graphql, graphql-ws, React and its own files', () => {
    const outside: string[] = [];
    for (const file of files) {
      for (const { specifier } of importsOf(file)) {
        const where = path.relative(sourceRoot, file);
        if (specifier.startsWith('.')) {
          const target = path.resolve(path.dirname(file), specifier);
          if (!target.startsWith(sourceRoot + path.sep)) outside.push(`${where}: ${specifier}`);
        } else if (specifier.startsWith('node:') || !ALLOWED_PACKAGES.has(packageName(specifier))) {
          outside.push(`${where}: ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('uses React in its hooks only, and the documents package for types only', () => {
    for (const file of files) {
      for (const { specifier, typeOnly } of importsOf(file)) {
        if (packageName(specifier) === 'react') expect(path.relative(sourceRoot, file)).toBe('react.ts');
        if (specifier === '@graphql-typed-document-node/core') expect(typeOnly, path.relative(sourceRoot, file)).toBe(true);
      }
    }
  });

  it('declares what it imports: graphql and graphql-ws as peers, React as an optional one', () => {
    const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@parley/client',
      type: 'module',
      exports: {
        '.': { '@parley/source': './src/index.ts', types: './dist/index.d.ts', import: './dist/index.js' },
        './react': { '@parley/source': './src/react.ts', types: './dist/react.d.ts', import: './dist/react.js' },
      },
      files: ['dist'],
      peerDependenciesMeta: { react: { optional: true } },
    });
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['graphql', 'graphql-ws', 'react']);
  });
});

describe('the web chat uses only what a customer installs', () => {
  const webRoot = path.resolve(import.meta.dirname, '../../web/src');
  const files = sourceFiles(webRoot);
  // The client through its package names (as a customer imports it), React, and its own files.
  // And the Markdown renderer of replies (web/src/Markdown.tsx): React elements from a syntax tree, no raw HTML.
  const allowed = new Set([
    'react', 'react-dom/client', '@parley/client', '@parley/client/react', '@graphql-typed-document-node/core',
    'react-markdown', 'remark-gfm', 'rehype-highlight',
  ]);

  it('imports the client package, React and its own files, nothing of the server', () => {
    expect(files.map((file) => path.relative(webRoot, file))).toEqual(expect.arrayContaining(['main.tsx', 'App.tsx', 'Chat.tsx']));
    // Its documents and their types are the client package's: the web chat has no codegen output of its own.
    expect(files.filter((file) => path.relative(webRoot, file).startsWith('gql'))).toEqual([]);
    const outside: string[] = [];
    for (const file of files) {
      for (const { specifier } of importsOf(file)) {
        const where = path.relative(webRoot, file);
        if (specifier.startsWith('.')) {
          const target = path.resolve(path.dirname(file), specifier);
          if (!target.startsWith(webRoot + path.sep)) outside.push(`${where}: ${specifier}`);
        } else if (!allowed.has(specifier)) {
          outside.push(`${where}: ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });
});
