import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { findUnsafeString, isBinary, unsafeCharacterIn } from '../use-input-hygiene.ts';

const NUL = 'before\u0000after';
const LONE_LOW = 'before\uDC00after';

describe('the check itself', () => {
  it('finds the one bad string among many in one pass, wherever it is', () => {
    const many = Array.from({ length: 200_000 }, (_, index) => `string ${index} 🎉`);
    const document = parse(`mutation($list: [String!]!) { a(x: "ok", y: { z: ["fine", "also fine"] }) }`);
    expect(findUnsafeString(document, { list: many })).toBeNull();
    many[199_999] = LONE_LOW;
    expect(findUnsafeString(document, { list: many })).toEqual({ where: '$list[199999]', reason: 'an unpaired surrogate' });
  });

  it('walks deep nesting without recursion', () => {
    let nested: unknown = NUL;
    for (let depth = 0; depth < 100_000; depth++) nested = { inner: nested };
    const found = findUnsafeString(parse('{ a }'), { deep: nested });
    expect(found?.reason).toBe('a NUL character');
    expect(found?.where.startsWith('$deep.inner.inner')).toBe(true);
  });

  it('reads each string once, pairs included', () => {
    const long = '🎉'.repeat(500_000);
    expect(unsafeCharacterIn(long)).toBeNull();
    expect(unsafeCharacterIn(`${long}\uD83C`)).toBe('an unpaired surrogate');
    expect(unsafeCharacterIn(`\uDF89${long}`)).toBe('an unpaired surrogate');
    expect(unsafeCharacterIn(`${long}\u0000`)).toBe('a NUL character');
  });

  it('names the argument of a literal, through input objects', () => {
    const document = parse(`mutation { a(input: { name: "ok", nested: { systemPrompt: "bad\\u0000" } }) { __typename } }`);
    expect(findUnsafeString(document, {})).toEqual({ where: 'input.nested.systemPrompt', reason: 'a NUL character' });
  });
});

describe('the input check', () => {
  /** A file of the upload library's shape whose bytes throw if anything reads them. */
  function untouchableFile(name: string) {
    return {
      name,
      type: 'text/plain',
      size: 3,
      arrayBuffer: async () => new ArrayBuffer(3),
      stream: () => new ReadableStream(),
      get bytes(): never {
        throw new Error('the check read the file’s bytes');
      },
    };
  }

  it('recognises files by their shape and reads only their name and type', () => {
    const document = parse('mutation { __typename }');
    expect(isBinary(untouchableFile('a.txt'))).toBe(true);
    expect(findUnsafeString(document, { files: [untouchableFile('a.txt')] })).toBeNull();
    expect(findUnsafeString(document, { files: [untouchableFile('a\u0000.txt')] })).toEqual({
      where: '$files[0].name',
      reason: 'a NUL character',
    });
  });

  it('never walks typed arrays, buffers or blobs', () => {
    const document = parse('mutation { __typename }');
    for (const bytes of [new Uint8Array(3), Buffer.alloc(3), new ArrayBuffer(3), new DataView(new ArrayBuffer(3)), new Blob(['abc'])]) {
      expect(isBinary(bytes), String(bytes)).toBe(true);
    }
    // Five million entries: a walk would take seconds.
    expect(findUnsafeString(document, { bytes: new Uint8Array(5_000_000), input: { size: 3, name: 'plain' } })).toBeNull();
    expect(isBinary({ size: 3, name: 'plain' })).toBe(false);
  });
});
