import { readFileSync } from 'node:fs';
import { buildSchema, isAbstractType } from 'graphql';
import { describe, expect, it } from 'vitest';

// The README's possibleTypes for Apollo Client must be what schema.graphql says.
describe("the README's client contract", () => {
  it('lists possibleTypes exactly as schema.graphql has them', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /<!-- possibleTypes:[^>]*-->\s*```json\n([\s\S]*?)```/.exec(readme);
    expect(block, 'the possibleTypes block in the README').not.toBeNull();
    const listed = JSON.parse(block![1]!) as Record<string, string[]>;
    const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
    for (const [name, types] of Object.entries(listed)) {
      const type = schema.getType(name);
      expect(type && isAbstractType(type), `${name} is an interface or union`).toBe(true);
      expect(types).toEqual(schema.getPossibleTypes(type as Parameters<typeof schema.getPossibleTypes>[0]).map((member) => member.name).sort());
    }
    expect(Object.keys(listed).sort()).toEqual(['Error', 'ExecutionEvent', 'MessagePart', 'RunEvent']);
  });
});
