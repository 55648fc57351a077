// The chat's words for a thread's context (its gauge, the summarised messages, "Summarise and
// retry"), in English and German; i18n.ts spreads them into each language's copy.

export const compactionEn = {
  contextGauge: 'Context',
  contextUsed: (used: string, window: string, percent: number) => `Context: ${used} of ${window} tokens (${percent} %)`,
  summarisedShow: 'Earlier messages summarised — show',
  summarisedHide: 'Earlier messages summarised — hide',
  summaryOf: (messages: number, model: string) => `Summary of ${messages} earlier ${messages === 1 ? 'message' : 'messages'} (by ${model}), which the model is sent instead of them:`,
  summarisedOriginals: 'The summarised messages',
  summariseAndRetry: 'Summarise and retry',
  summarising: 'Summarising…',
};

export type CompactionMessages = typeof compactionEn;

export const compactionDe: CompactionMessages = {
  contextGauge: 'Kontext',
  contextUsed: (used, window, percent) => `Kontext: ${used} von ${window} Tokens (${percent} %)`,
  summarisedShow: 'Frühere Nachrichten zusammengefasst — anzeigen',
  summarisedHide: 'Frühere Nachrichten zusammengefasst — ausblenden',
  summaryOf: (messages, model) => `Zusammenfassung ${messages === 1 ? 'einer früheren Nachricht' : `von ${messages} früheren Nachrichten`} (von ${model}), die das Modell an ihrer Stelle erhält:`,
  summarisedOriginals: 'Die zusammengefassten Nachrichten',
  summariseAndRetry: 'Zusammenfassen und wiederholen',
  summarising: 'Wird zusammengefasst…',
};
