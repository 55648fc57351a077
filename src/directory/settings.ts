import { z } from 'zod';
import { positiveInt } from '../lifecycle/settings.ts';

/** The directory's slice of the settings. */
export const directorySettings = z.object({
  PARLEY_MAX_THREADS_PER_USER: positiveInt.default(10_000).describe('threads one user may own; `createThread` beyond it answers `LimitExceededError`'),
});
