import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { VerifiedIdentity } from './jwt.ts';

const LOCALES = ['en', 'de'] as const;
type UserLocale = (typeof LOCALES)[number];

/** A BCP 47 tag (`de-AT`, `de_DE`, `EN`) as one of Parley's locales, or null for one it does not speak. */
export function localeFromClaim(claim: string | null): UserLocale | null {
  const language = claim?.split(/[-_]/)[0]?.toLowerCase();
  return LOCALES.find((locale) => locale === language) ?? null;
}

/** What a user row should say for this identity's claims. */
export function claimedFields(identity: VerifiedIdentity): { email: string | null; name: string | null; locale?: UserLocale } {
  const locale = localeFromClaim(identity.locale);
  return { email: identity.email?.toLowerCase() ?? null, name: identity.name, ...(locale ? { locale } : {}) };
}

/**
 * The Parley user of a verified JWT's `(iss, sub)`: created the first time it is seen and brought
 * up to date when its claims change. The unique pair makes concurrent first requests create one
 * row: the loser of the race reads the winner's.
 */
export async function userForIdentity(prisma: PrismaClient, identity: VerifiedIdentity): Promise<User> {
  const key = { externalIssuer_externalSubject: { externalIssuer: identity.issuer, externalSubject: identity.subject } };
  const fields = claimedFields(identity);
  const existing = await prisma.user.findUnique({ where: key });
  if (existing) return upToDate(prisma, existing, fields);
  try {
    return await prisma.user.create({
      data: { externalIssuer: identity.issuer, externalSubject: identity.subject, ...fields },
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'P2002') throw error;
    const created = await prisma.user.findUnique({ where: key });
    if (!created) throw error;
    return upToDate(prisma, created, fields);
  }
}

async function upToDate(prisma: PrismaClient, user: User, fields: ReturnType<typeof claimedFields>): Promise<User> {
  const changed = user.email !== fields.email || user.name !== fields.name || (fields.locale !== undefined && user.locale !== fields.locale);
  if (!changed) return user;
  return prisma.user.update({ where: { id: user.id }, data: fields });
}
