-- AlterTable
ALTER TABLE "api_token" ADD COLUMN     "expiresAt" TIMESTAMP(3);

