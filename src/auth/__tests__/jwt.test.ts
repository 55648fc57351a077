import { errors } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { looksLikeJwt, refusalReason } from '../jwt.ts';
import { claimedFields, localeFromClaim } from '../jwt-users.ts';
import { jwksUrlProblem } from '../settings.ts';

const KEYS = { PARLEY_AUTH_ISSUER: 'https://id.example.test/', PARLEY_AUTH_AUDIENCE: 'parley-api' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

describe('JWT sign-in settings', () => {
  it('take an https JWKS URL, and http only for a loopback host', () => {
    expect(jwksUrlProblem('https://id.example.test/.well-known/jwks.json')).toBeNull();
    expect(jwksUrlProblem('http://127.0.0.1:8080/jwks')).toBeNull();
    expect(jwksUrlProblem('http://localhost/jwks')).toBeNull();
    expect(jwksUrlProblem('http://[::1]:9000/jwks')).toBeNull();
    expect(jwksUrlProblem('http://id.example.test/jwks')).toMatch(/http:\/\/ only for a loopback host.*"id\.example\.test" needs https/);
    expect(jwksUrlProblem('http://127.0.0.1.evil.test/jwks')).toMatch(/needs https/);
    expect(jwksUrlProblem('ftp://id.example.test/jwks')).toMatch(/https:\/\//);
    expect(jwksUrlProblem('not a url')).toMatch(/https:\/\//);
  });

  it('are refused at load with a message naming the variable', () => {
    expect(problemsOf({ ...KEYS, PARLEY_AUTH_JWKS_URL: 'http://id.example.test/jwks' })).toEqual([
      expect.stringMatching(/^PARLEY_AUTH_JWKS_URL: may use http:\/\/ only for a loopback host/),
    ]);
    expect(problemsOf({ PARLEY_AUTH_JWKS_URL: 'https://id.example.test/jwks' })).toEqual([
      'PARLEY_AUTH_ISSUER: is required for JWT sign-in',
      'PARLEY_AUTH_AUDIENCE: is required for JWT sign-in',
    ]);
    expect(problemsOf({ ...KEYS, PARLEY_AUTH_JWT_SECRET: 'short' })).toEqual([expect.stringMatching(/^PARLEY_AUTH_JWT_SECRET: must be at least 32/)]);
    expect(problemsOf({ ...KEYS, PARLEY_AUTH_JWT_SECRET: 'x'.repeat(32), PARLEY_AUTH_JWKS_URL: 'https://id.example.test/jwks' })).toEqual([
      expect.stringMatching(/not both/),
    ]);
    expect(problemsOf({ PARLEY_AUTH_ISSUER: 'https://id.example.test/' })).toEqual([expect.stringMatching(/^PARLEY_AUTH_ISSUER: needs PARLEY_AUTH_JWKS_URL/)]);
    expect(problemsOf({ ...KEYS, PARLEY_AUTH_JWKS_URL: 'https://id.example.test/jwks' })).toEqual([]);
  });

  it('never put the secret in a refusal', () => {
    const secret = 'a-secret-value-that-is-much-too-short';
    expect(problemsOf({ PARLEY_AUTH_JWT_SECRET: secret }).join('\n')).not.toContain(secret);
  });
});

describe('telling a JWT from an API token', () => {
  it('takes three base64url parts as a JWT, and never an API token', () => {
    expect(looksLikeJwt('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.')).toBe(true);
    expect(looksLikeJwt('pky_abcdefghijklmnopqrstuvwxyz0123456789AB')).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
    expect(looksLikeJwt('a.b.c.d')).toBe(false);
    expect(looksLikeJwt(`${'a'.repeat(20_000)}.b.c`)).toBe(false);
  });
});

describe('why a JWT was refused', () => {
  it('names the claim that failed, never the token', () => {
    const payload = { aud: 'x' };
    expect(refusalReason(new errors.JWTExpired('"exp" claim timestamp check failed', payload, 'exp', 'check_failed'))).toMatch(/expired/);
    expect(refusalReason(new errors.JWTClaimValidationFailed('x', payload, 'aud', 'check_failed'))).toMatch(/another audience/);
    expect(refusalReason(new errors.JWTClaimValidationFailed('x', payload, 'iss', 'check_failed'))).toMatch(/another issuer/);
    expect(refusalReason(new errors.JWTClaimValidationFailed('x', payload, 'nbf', 'check_failed'))).toMatch(/not valid yet/);
    expect(refusalReason(new errors.JWSSignatureVerificationFailed())).toMatch(/signature/);
    expect(refusalReason(new errors.JWKSNoMatchingKey())).toMatch(/unknown kid/);
    expect(refusalReason(new errors.JOSEAlgNotAllowed('x'))).toMatch(/algorithm is not allowed/);
  });
});

describe('claims as user fields', () => {
  it('reads a locale Parley speaks from a BCP 47 tag, and nothing from one it does not', () => {
    expect(localeFromClaim('de')).toBe('de');
    expect(localeFromClaim('de-AT')).toBe('de');
    expect(localeFromClaim('EN_us')).toBe('en');
    expect(localeFromClaim('fr-FR')).toBeNull();
    expect(localeFromClaim(null)).toBeNull();
  });

  it('keeps the stored locale when the claim names none Parley speaks', () => {
    const identity = { issuer: 'i', subject: 's', email: 'A@B.test', name: 'A', locale: 'fr', expiresAt: null, admin: false };
    expect(claimedFields(identity)).toEqual({ email: 'a@b.test', name: 'A' });
  });
});
