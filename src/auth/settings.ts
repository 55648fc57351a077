import { z } from 'zod';
import { positiveInt } from '../lifecycle/settings.ts';

/** The per-minute request budgets' slice of the settings. */
export const rateLimitSettings = z.object({
  PARLEY_MUTATIONS_PER_MINUTE: positiveInt.default(600),
  PARLEY_QUERIES_PER_MINUTE: positiveInt.default(1_200),
});

export type RateLimitSettings = z.infer<typeof rateLimitSettings>;
