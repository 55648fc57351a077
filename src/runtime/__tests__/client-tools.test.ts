import { describe, expect, it } from 'vitest';
import { clientToolSet, withClientContext } from '../client-tools.ts';

describe('what an AG-UI client offers a turn', () => {
  it('gives the model the frontend tools without execute, so a call to one waits for the client', () => {
    const { tools, names } = clientToolSet({
      tools: [{ name: 'weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }, { name: 'ping', description: 'No arguments' }],
      context: [],
    });
    expect([...names]).toEqual(['weather', 'ping']);
    expect(tools.weather!.execute).toBeUndefined();
    expect(tools.weather!.description).toBe('The weather');
    expect(clientToolSet(null).names.size).toBe(0);
  });

  it('puts the context after the system prompt, marked as the application’s, and leaves the prompt alone without any', () => {
    const turn = { tools: [], context: [{ description: 'page', value: '/orders/42' }, { description: 'locale', value: 'de' }] };
    expect(withClientContext('Be brief.', turn)).toBe("Be brief.\n\nContext from the user's application for this turn:\n- page: /orders/42\n- locale: de");
    expect(withClientContext('', turn)).toBe("Context from the user's application for this turn:\n- page: /orders/42\n- locale: de");
    expect(withClientContext('Be brief.', { tools: [], context: [] })).toBe('Be brief.');
    expect(withClientContext('Be brief.', null)).toBe('Be brief.');
  });
});
