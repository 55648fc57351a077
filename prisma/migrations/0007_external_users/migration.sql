-- A user signed in by a JWT is known by its issuer and subject; its email is what the token's
-- claim says (possibly nothing), so it is unique only among the users made with the CLI.
ALTER TABLE "user" ALTER COLUMN "email" DROP NOT NULL;
ALTER TABLE "user" ADD COLUMN "name" TEXT;
ALTER TABLE "user" ADD COLUMN "externalIssuer" TEXT;
ALTER TABLE "user" ADD COLUMN "externalSubject" TEXT;

DROP INDEX "user_email_key";
CREATE UNIQUE INDEX "user_email_key" ON "user" ("email") WHERE "externalIssuer" IS NULL;

-- Concurrent first requests of one signed-in user create one row: the second insert conflicts here.
CREATE UNIQUE INDEX "user_externalIssuer_externalSubject_key" ON "user" ("externalIssuer", "externalSubject");
