-- An admin disables a user (every credential refused) and makes admin API tokens.
-- AlterTable
ALTER TABLE "user" ADD COLUMN     "disabledAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "api_token" ADD COLUMN     "admin" BOOLEAN NOT NULL DEFAULT false;

