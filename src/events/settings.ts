import { z } from 'zod';
import { optionalUrl, positiveInt } from '../lifecycle/settings.ts';

/** The live bus's slice of the settings. */
export const liveBusSettings = z.object({
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  PARLEY_LIVE_CHANNEL_TIMEOUT_MS: positiveInt.default(10_000),
});

export type LiveBusSettings = z.infer<typeof liveBusSettings>;
