import { z } from 'zod';
import { positiveInt } from '../lifecycle/settings.ts';

/** The per-minute request budgets' slice of the settings. */
export const rateLimitSettings = z.object({
  PARLEY_MUTATIONS_PER_MINUTE: positiveInt.default(600).describe('mutation fields per minute per user, or per address when anonymous; shared by all instances through Redis'),
  PARLEY_QUERIES_PER_MINUTE: positiveInt.default(1_200).describe('queries and subscription starts per minute per user, or per address when anonymous; shared through Redis'),
});

export type RateLimitSettings = z.infer<typeof rateLimitSettings>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Keys fetched over plain HTTP could be swapped by anyone on the path, so only loopback may use it. */
export function jwksUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL starting with https://';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname))) return null;
  if (url.protocol === 'http:') return `may use http:// only for a loopback host (localhost, 127.0.0.1, [::1]); "${url.hostname}" needs https://`;
  return 'must be a URL starting with https://';
}

const claimName = z.string().trim().min(1).max(200);

/** JWT sign-in's slice of the settings: where the keys are, whom to trust, which claims to read. */
export const jwtSettings = z.object({
  PARLEY_AUTH_JWKS_URL: z
    .string()
    .meta({ allowed: 'an https:// URL (http:// only for a loopback host)' })
    .trim()
    .min(1)
    .superRefine((value, ctx) => {
      const problem = jwksUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional().describe('JWT sign-in: the identity provider’s key set'),
  PARLEY_AUTH_JWT_SECRET: z.string().min(32, 'must be at least 32 characters (an HS256 key of 256 bits)').optional().describe('JWT sign-in with a shared HS256 secret (at least 32 characters) instead of a key set; never logged or shown'),
  PARLEY_AUTH_ISSUER: z.string().trim().min(1).optional().describe('the `iss` a JWT must carry (required with a key set or secret)'),
  PARLEY_AUTH_AUDIENCE: z.string().trim().min(1).optional().describe('the `aud` a JWT must carry (required with a key set or secret)'),
  // A token naming an unknown `kid` refetches the keys at most this often: rotation works, a flood of made-up kids does not reach the provider.
  PARLEY_AUTH_JWKS_COOLDOWN_MS: z.coerce.number().int().nonnegative().default(30_000).describe('a JWT naming an unknown `kid` refetches the key set at most this often, so made-up kids do not flood the provider'),
  PARLEY_AUTH_EMAIL_CLAIM: claimName.default('email').describe('the claim a JWT user’s email is taken from'),
  PARLEY_AUTH_NAME_CLAIM: claimName.default('name').describe('the claim a JWT user’s name is taken from'),
  PARLEY_AUTH_LOCALE_CLAIM: claimName.default('locale').describe('the claim a JWT user’s locale is taken from'),
  // A JWT whose `scope` (space-separated) or `scp` claim holds this may use the admin API; unset, no JWT may.
  PARLEY_AUTH_ADMIN_SCOPE: z.string().trim().min(1).max(200).regex(/^\S+$/, 'must be one scope, without spaces').meta({ allowed: 'one scope, without spaces' }).optional().describe('the scope (in `scope` or `scp`) that makes a JWT an admin credential for the admin API; unset, no JWT is one'),
});

export type JwtSettings = z.infer<typeof jwtSettings>;

/** What the JWT settings lack together (each one alone is valid), one problem per variable. */
export function jwtSettingsProblems(settings: JwtSettings): string[] {
  const enabled = settings.PARLEY_AUTH_JWKS_URL !== undefined || settings.PARLEY_AUTH_JWT_SECRET !== undefined;
  if (!enabled) {
    const stray = (['PARLEY_AUTH_ISSUER', 'PARLEY_AUTH_AUDIENCE'] as const).filter((name) => settings[name] !== undefined);
    return stray.map((name) => `${name}: needs PARLEY_AUTH_JWKS_URL or PARLEY_AUTH_JWT_SECRET (JWT sign-in is off without a key)`);
  }
  const problems: string[] = [];
  if (settings.PARLEY_AUTH_JWKS_URL !== undefined && settings.PARLEY_AUTH_JWT_SECRET !== undefined) {
    problems.push('PARLEY_AUTH_JWT_SECRET: set either PARLEY_AUTH_JWKS_URL or PARLEY_AUTH_JWT_SECRET, not both');
  }
  // Without both, a token minted for another product by the same provider would sign in here.
  if (settings.PARLEY_AUTH_ISSUER === undefined) problems.push('PARLEY_AUTH_ISSUER: is required for JWT sign-in');
  if (settings.PARLEY_AUTH_AUDIENCE === undefined) problems.push('PARLEY_AUTH_AUDIENCE: is required for JWT sign-in');
  return problems;
}
