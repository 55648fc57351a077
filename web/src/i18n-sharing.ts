// The chat's words for share links and for a reply's Markdown (code blocks), in English and
// German; i18n.ts spreads them into each language's copy.

export const sharingEn = {
  copyCode: 'Copy',
  copied: 'Copied',
  share: 'Share…',
  shareTitle: 'Share this conversation up to here',
  shareExplain: 'Anyone with the link can read the messages up to this reply, without signing in. Later messages, your email and your other threads stay private.',
  shareIncludeFiles: 'Include attached files',
  shareCreate: 'Create link',
  shareLink: 'Link',
  shareCopy: 'Copy link',
  shareClose: 'Close',
  shareLinks: 'Links to this thread',
  shareRevoke: 'Revoke',
  shareRevoked: 'Revoked: the link no longer works.',
  sharedBy: (agent: string, at: string) => `Shared conversation with ${agent}, ${at}`,
  sharedReadOnly: 'A read-only copy, as it was when it was shared.',
  sharedNotFound: 'This link does not exist, or it was revoked.',
  sharedLoading: 'Loading the shared conversation…',
};

export const sharingDe: typeof sharingEn = {
  copyCode: 'Kopieren',
  copied: 'Kopiert',
  share: 'Teilen…',
  shareTitle: 'Diese Unterhaltung bis hier teilen',
  shareExplain: 'Wer den Link hat, kann die Nachrichten bis zu dieser Antwort ohne Anmeldung lesen. Spätere Nachrichten, Ihre E-Mail-Adresse und Ihre anderen Threads bleiben privat.',
  shareIncludeFiles: 'Angehängte Dateien einschließen',
  shareCreate: 'Link erstellen',
  shareLink: 'Link',
  shareCopy: 'Link kopieren',
  shareClose: 'Schließen',
  shareLinks: 'Links zu diesem Thread',
  shareRevoke: 'Widerrufen',
  shareRevoked: 'Widerrufen: Der Link funktioniert nicht mehr.',
  sharedBy: (agent: string, at: string) => `Geteilte Unterhaltung mit ${agent}, ${at}`,
  sharedReadOnly: 'Eine schreibgeschützte Kopie, wie sie beim Teilen war.',
  sharedNotFound: 'Diesen Link gibt es nicht, oder er wurde widerrufen.',
  sharedLoading: 'Die geteilte Unterhaltung wird geladen…',
};
