import { z } from 'zod';

/** Usage's slice of the settings. */
export const usageSettings = z.object({
  PARLEY_CURRENCY: z
    .string()
    .meta({ allowed: 'an ISO 4217 code: three capital letters' })
    .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 currency code such as USD or EUR')
    .default('USD').describe('the deployment’s one currency (ISO 4217): every price and cost is in it'),
});
