/*
 * What a model is told when it is asked to summarise the oldest part of a thread (compaction,
 * docs/compaction.md), and how the summary then leads the history the model is sent. The demo model
 * recognises both, so tests can see what a model was sent.
 */

/** The system prompt of a summary request. */
export const SUMMARY_INSTRUCTIONS =
  'Summarise the conversation above concisely: keep every fact, decision, name, number and open question needed to continue it.';

/** The user message that closes a summary request, after the messages to summarise. */
export const SUMMARY_REQUEST = 'Summarise the conversation above now.';

/** The first line of the system message that carries a summary at the head of a compacted history. */
export const SUMMARY_HEADING = 'Summary of the earlier conversation:';

/** Where the run's call options carry what the demo model must know of the agent (its window). */
export const PARLEY_PROVIDER_OPTIONS = 'parley';
