import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { JwtSettings } from './settings.ts';

/** Leeway for `exp` and `nbf`: the provider's clock and ours disagree by a few seconds. */
export const CLOCK_TOLERANCE_S = 30;
const MAX_JWT_CHARS = 16_384;
// The asymmetric algorithms a JWKS key may name; HS* never comes from a key set, so a public key is never a secret.
const PUBLIC_KEY_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A bearer value of three base64url parts is a JWT; an API token (pky_…) never is. */
export function looksLikeJwt(token: string): boolean {
  return token.length <= MAX_JWT_CHARS && JWT_SHAPE.test(token);
}

/** Why a JWT was refused, in words a client's developer can act on (never any key material). */
export class JwtRefusedError extends Error {
  constructor(reason: string) {
    super(`The sign-in token was refused: ${reason}.`);
    this.name = 'JwtRefusedError';
  }
}

/** Who a verified token names, and the claims a user is kept up to date with. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  locale: string | null;
  /** When the token stops being valid (ms), or null when it has no `exp`. */
  expiresAt: number | null;
  /** Whether the token carries the admin scope (PARLEY_AUTH_ADMIN_SCOPE). */
  admin: boolean;
}

export type JwtKeys = { kind: 'jwks'; keys: JWTVerifyGetKey } | { kind: 'secret'; secret: Uint8Array };

export function jwtKeysFrom(settings: JwtSettings): JwtKeys | null {
  if (settings.PARLEY_AUTH_JWKS_URL) {
    const keys = createRemoteJWKSet(new URL(settings.PARLEY_AUTH_JWKS_URL), {
      cooldownDuration: settings.PARLEY_AUTH_JWKS_COOLDOWN_MS,
      timeoutDuration: 5_000,
    });
    return { kind: 'jwks', keys };
  }
  if (settings.PARLEY_AUTH_JWT_SECRET) return { kind: 'secret', secret: new TextEncoder().encode(settings.PARLEY_AUTH_JWT_SECRET) };
  return null;
}

/** Verifies a bearer JWT: its signature by a key it may use, its issuer, audience and lifetime. */
export class JwtVerifier {
  constructor(
    private readonly keys: JwtKeys,
    private readonly settings: Pick<
      JwtSettings,
      | 'PARLEY_AUTH_ISSUER'
      | 'PARLEY_AUTH_AUDIENCE'
      | 'PARLEY_AUTH_EMAIL_CLAIM'
      | 'PARLEY_AUTH_NAME_CLAIM'
      | 'PARLEY_AUTH_LOCALE_CLAIM'
      | 'PARLEY_AUTH_ADMIN_SCOPE'
    >,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The identity the token names; throws JwtRefusedError saying what was wrong. */
  async verify(token: string): Promise<VerifiedIdentity> {
    const options = {
      issuer: this.settings.PARLEY_AUTH_ISSUER,
      audience: this.settings.PARLEY_AUTH_AUDIENCE,
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(this.clock()),
    };
    let payload: JWTPayload;
    try {
      payload =
        this.keys.kind === 'jwks'
          ? (await jwtVerify(token, this.keys.keys, { ...options, algorithms: PUBLIC_KEY_ALGORITHMS })).payload
          : (await jwtVerify(token, this.keys.secret, { ...options, algorithms: ['HS256'] })).payload;
    } catch (error) {
      throw new JwtRefusedError(refusalReason(error));
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new JwtRefusedError('it names no subject (sub)');
    return {
      issuer: payload.iss!,
      subject: payload.sub,
      email: stringClaim(payload, this.settings.PARLEY_AUTH_EMAIL_CLAIM),
      name: stringClaim(payload, this.settings.PARLEY_AUTH_NAME_CLAIM),
      locale: stringClaim(payload, this.settings.PARLEY_AUTH_LOCALE_CLAIM),
      expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null,
      admin: this.settings.PARLEY_AUTH_ADMIN_SCOPE !== undefined && scopesOf(payload).includes(this.settings.PARLEY_AUTH_ADMIN_SCOPE),
    };
  }
}

/** The scopes a token grants: OAuth's space-separated `scope`, or `scp` (a list, as some providers send it, or a string). */
export function scopesOf(payload: JWTPayload): string[] {
  const scopes: string[] = [];
  for (const claim of [payload.scope, payload.scp]) {
    if (typeof claim === 'string') scopes.push(...claim.split(' ').filter(Boolean));
    else if (Array.isArray(claim)) scopes.push(...claim.filter((scope): scope is string => typeof scope === 'string'));
  }
  return scopes;
}

function stringClaim(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 320) : null;
}

/** jose's error, reduced to what was wrong: its own messages may quote claim values, never keys, but are terser than needed. */
export function refusalReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'it has expired (exp)';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return 'it was issued by another issuer (iss)';
      case 'aud':
        return 'it was issued for another audience (aud)';
      case 'nbf':
        return 'it is not valid yet (nbf)';
      case 'iat':
        return 'it was issued in the future (iat)';
      default:
        return `its claim ${error.claim} is not valid`;
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not verify';
  if (error instanceof errors.JWKSNoMatchingKey) return 'it is signed by a key the issuer does not publish (unknown kid)';
  if (error instanceof errors.JWKSMultipleMatchingKeys) return 'its key is ambiguous (several keys match)';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'its signing algorithm is not allowed';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return 'the issuer’s keys could not be fetched';
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return 'it is not a well-formed JWT';
  if (error instanceof errors.JOSEError) return 'it could not be verified';
  return 'the issuer’s keys could not be fetched';
}
