import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../use-attachment-download.ts';

describe('contentDisposition', () => {
  it('always says attachment, with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('Grüße "quoted".txt')).toBe(
      `attachment; filename="Gr__e _quoted_.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%22quoted%22.txt`,
    );
    expect(contentDisposition("it's (1).txt")).toBe(`attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`);
  });
});
