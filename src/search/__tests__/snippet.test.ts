import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../domain/errors.ts';
import { MATCH_END, MATCH_START } from '../../storage/search-statements.ts';
import { searchWords } from '../search-query.ts';
import { markedRanges, snippetOf } from '../snippet.ts';

const mark = (word: string) => `${MATCH_START}${word}${MATCH_END}`;

describe('a search query', () => {
  it('is its words, lower-cased, whatever separates them', () => {
    expect(searchWords('  Häuser, am SEE! (c++) ')).toEqual(['häuser', 'am', 'see', 'c']);
    expect(searchWords("don't:* & | !x")).toEqual(['don', 't', 'x']);
  });

  it('is refused without a word, or when longer than a search box sends', () => {
    for (const query of ['', '  ', '?!:*&|', 'x'.repeat(201), 'a '.repeat(13)]) {
      expect(() => searchWords(query)).toThrow(InvalidInputError);
    }
  });
});

describe('a snippet', () => {
  it('marks the words any configuration matched, as plain parts', () => {
    const text = 'Die Häuser am See';
    const snippet = snippetOf(text, [`Die Häuser am ${mark('See')}`, `Die ${mark('Häuser')} am See`, null]);
    expect(snippet.parts).toEqual([
      { text: 'Die ', highlighted: false },
      { text: 'Häuser', highlighted: true },
      { text: ' am ', highlighted: false },
      { text: 'See', highlighted: true },
    ]);
    expect(snippet.text).toBe(text);
  });

  it('never marks anything from a headline that is not the text', () => {
    expect(markedRanges('abc', `${mark('abd')}`)).toEqual([]);
  });

  it('is cut around the first match, at word boundaries, with an ellipsis where it was cut', () => {
    const text = `${'lorem '.repeat(40)}needle ${'ipsum '.repeat(60)}`.trim();
    const at = text.indexOf('needle');
    const headline = `${text.slice(0, at)}${mark('needle')}${text.slice(at + 6)}`;
    const snippet = snippetOf(text, [headline]);
    expect(snippet.text.startsWith('…lorem ')).toBe(true);
    expect(snippet.text.endsWith('ipsum…')).toBe(true);
    expect(snippet.text.length).toBeLessThan(240);
    expect(snippet.parts.filter((part) => part.highlighted)).toEqual([{ text: 'needle', highlighted: true }]);
  });

  it('shows line breaks as spaces', () => {
    expect(snippetOf('one\ntwo', [`one\n${mark('two')}`]).parts).toEqual([
      { text: 'one ', highlighted: false },
      { text: 'two', highlighted: true },
    ]);
  });
});
