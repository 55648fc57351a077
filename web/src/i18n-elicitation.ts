// The chat's words for a tool server's question during a call (an ELICITATION card), in English
// and German; i18n.ts spreads them into each language's copy.

export const elicitationEn = {
  elicitationTitle: 'A tool asks you',
  elicitationFrom: (tool: string) => `${tool} waits for your answer.`,
  elicitationAccept: 'Send',
  elicitationDecline: 'Decline',
  elicitationCancel: 'Cancel',
};

export type ElicitationMessages = typeof elicitationEn;

export const elicitationDe: ElicitationMessages = {
  elicitationTitle: 'Ein Werkzeug fragt Sie',
  elicitationFrom: (tool) => `${tool} wartet auf Ihre Antwort.`,
  elicitationAccept: 'Senden',
  elicitationDecline: 'Ablehnen',
  elicitationCancel: 'Abbrechen',
};
