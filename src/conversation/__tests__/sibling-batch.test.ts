import { describe, expect, it } from 'vitest';
import { SiblingBatch, type SiblingKey } from '../conversation-service.ts';

describe('SiblingBatch', () => {
  it('answers the reads of one turn with one call, each with its own siblings', async () => {
    const calls: SiblingKey[][] = [];
    const batch = new SiblingBatch({
      siblingIds: async (messages) => {
        calls.push([...messages]);
        return messages.map((message) => [`${message.parentId ?? 'root'}-${message.role}`]);
      },
    });
    const answers = await Promise.all([
      batch.load({ threadId: 't', parentId: null, role: 'USER' }),
      batch.load({ threadId: 't', parentId: 'a', role: 'ASSISTANT' }),
      batch.load({ threadId: 't', parentId: 'b', role: 'USER' }),
    ]);
    expect(answers).toEqual([['root-USER'], ['a-ASSISTANT'], ['b-USER']]);
    expect(calls).toHaveLength(1);
    expect(await batch.load({ threadId: 't', parentId: 'c', role: 'USER' })).toEqual(['c-USER']);
    expect(calls).toHaveLength(2);
  });

  it('hands a failed read to every caller of its batch', async () => {
    const batch = new SiblingBatch({ siblingIds: async () => Promise.reject(new Error('database away')) });
    const reads = [batch.load({ threadId: 't', parentId: null, role: 'USER' }), batch.load({ threadId: 't', parentId: 'x', role: 'USER' })];
    for (const read of reads) await expect(read).rejects.toThrow('database away');
  });
});
