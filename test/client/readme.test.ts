import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, isAbstractType } from 'graphql';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const clientPage = readFileSync(new URL('../../docs/client.md', import.meta.url), 'utf8');

describe("docs/client.md's client contract", () => {
  // The page's possibleTypes for Apollo Client must be what schema.graphql says.
  it('lists possibleTypes exactly as schema.graphql has them', () => {
    const block = /<!-- possibleTypes:[^>]*-->\s*```json\n([\s\S]*?)```/.exec(clientPage);
    expect(block, 'the possibleTypes block in docs/client.md').not.toBeNull();
    const listed = JSON.parse(block![1]!) as Record<string, string[]>;
    const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
    for (const [name, types] of Object.entries(listed)) {
      const type = schema.getType(name);
      expect(type && isAbstractType(type), `${name} is an interface or union`).toBe(true);
      expect(types).toEqual(schema.getPossibleTypes(type as Parameters<typeof schema.getPossibleTypes>[0]).map((member) => member.name).sort());
    }
    expect(Object.keys(listed).sort()).toEqual(['Error', 'ExecutionEvent', 'MessagePart', 'RunEvent']);
  });

  // The "Build a client" example is code a reader copies: it must compile against the package as it is.
  it('has a "Build a client" example that type-checks against @parley/client', () => {
    const section = clientPage.slice(clientPage.indexOf('# Build a client'), clientPage.indexOf('## Writing your own client'));
    const example = /```tsx\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example, 'the tsx example under "Build a client"').toBeTruthy();
    const root = path.resolve(import.meta.dirname, '../..');
    const file = path.join(root, 'test/client/readme-example.tsx');
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      jsx: ts.JsxEmit.ReactJSX,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      types: [],
      baseUrl: root,
      // The package's sources, as a consumer's bundler would see them through its exports.
      paths: { '@parley/client': ['packages/client/src/index.ts'], '@parley/client/react': ['packages/client/src/react.ts'] },
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (name) => (path.resolve(name) === file ? example : readFile(name));
    host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
    host.getSourceFile = (name, language, ...rest) =>
      path.resolve(name) === file ? ts.createSourceFile(name, example!, language, true, ts.ScriptKind.TSX) : getSourceFile(name, language, ...rest);
    const program = ts.createProgram([file], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => `${diagnostic.file ? path.relative(root, diagnostic.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(problems).toEqual([]);
  }, 60_000);
});
