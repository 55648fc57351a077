// The chat's words for searching threads, in English and German; i18n.ts spreads them into each language's copy.

export const searchEn = {
  searchThreads: 'Search threads',
  searchPlaceholder: 'Search…',
  searchHits: 'Search results',
  noHits: 'Nothing found.',
  moreHits: 'More results',
  clearSearch: 'Clear',
};

export const searchDe: typeof searchEn = {
  searchThreads: 'Threads durchsuchen',
  searchPlaceholder: 'Suchen…',
  searchHits: 'Suchergebnisse',
  noHits: 'Nichts gefunden.',
  moreHits: 'Weitere Ergebnisse',
  clearSearch: 'Leeren',
};
