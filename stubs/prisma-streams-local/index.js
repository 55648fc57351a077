// `prisma dev` (a local Prisma Postgres server) is the only user of @prisma/streams-local; Parley
// runs PostgreSQL or PGlite itself and never starts it.
export async function startLocalDurableStreamsServer() {
  throw new Error('@prisma/streams-local is stubbed out in Parley (package.json overrides): `prisma dev` is not supported here');
}
