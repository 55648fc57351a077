import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedMediaType, MAX_FILENAME_CHARS, safeFilename } from '../attachment-policy.ts';

describe('safeFilename', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\report.pdf', 'report.pdf'],
    ['\u202Efdp.exe', 'fdp.exe'],
    ['.htaccess', 'htaccess'],
    ['   ', 'attachment'],
    ['..', 'attachment'],
    ['. .hidden', 'hidden'],
    ['dir/', 'attachment'],
    ['a\u0000b\u001f\u007f\u0085c.txt', 'abc.txt'],
    ['half \uD800 pair.txt', 'half  pair.txt'],
    ['emoji 🎉.txt', 'emoji 🎉.txt'],
  ])('%j → %j', (name, safe) => {
    expect(safeFilename(name)).toBe(safe);
  });

  it('keeps the extension of a name it shortens, and never splits a surrogate pair', () => {
    const cut = safeFilename(`${'🎉'.repeat(300)}.tar.gz`);
    expect(cut.length).toBeLessThanOrEqual(MAX_FILENAME_CHARS);
    expect(cut.endsWith('.gz')).toBe(true);
    expect(safeFilename(cut)).toBe(cut);
  });

  it('any name gives a bounded, non-empty base name without separators or controls', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), (name) => {
        const safe = safeFilename(name);
        expect(safe.length).toBeGreaterThan(0);
        expect(safe.length).toBeLessThanOrEqual(MAX_FILENAME_CHARS);
        expect(safe).not.toMatch(/[/\\\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
        expect(safe.startsWith('.')).toBe(false);
        expect(safeFilename(safe)).toBe(safe);
      }),
    );
  });
});

describe('checkedMediaType', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const text = new TextEncoder().encode('hello');

  it('accepts an allowed type whose bytes agree, without its parameters', () => {
    expect(checkedMediaType('a.png', 'IMAGE/PNG', png)).toBe('image/png');
    expect(checkedMediaType('a.txt', 'text/plain; charset=utf-8', text)).toBe('text/plain');
  });

  it('infers the type from the bytes when none (or octet-stream) is declared', () => {
    expect(checkedMediaType('a', '', png)).toBe('image/png');
    expect(checkedMediaType('a', 'application/octet-stream', text)).toBe('text/plain');
    expect(checkedMediaType('a', '', new Uint8Array([0, 1, 2]))).toBe('application/octet-stream');
  });

  it('refuses a contradiction or a type outside the allowlist, naming the file', () => {
    expect(() => checkedMediaType('cat.png', 'image/png', text)).toThrow(/cat\.png: the content is not image\/png/);
    expect(() => checkedMediaType('cat.gif', 'image/gif', png)).toThrow(/not image\/gif/);
    expect(() => checkedMediaType('x.html', 'text/html', text)).toThrow(/text\/html is not accepted/);
    expect(() => checkedMediaType('x.txt', 'text/plain', png)).toThrow(/not UTF-8 text/);
  });
});
