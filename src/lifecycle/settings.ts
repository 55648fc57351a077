import { z } from 'zod';

/** The kinds of value a setting takes; each module's slice of the settings is built from them. */

export const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`)
    .meta({ allowed: `a ${protocols.map((p) => `${p}//`).join(' or ')} URL` })
    .optional();

export const positiveInt = z.coerce.number().int().positive();
export const positiveNumber = z.coerce.number().positive();
export const booleanFlag = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((value) => value === 'true');

/** One module's environment variables: names, defaults and validation. */
export type SettingsSlice = Record<string, z.ZodType>;
