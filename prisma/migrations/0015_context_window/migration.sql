-- AlterTable
ALTER TABLE "agent" ADD COLUMN     "compactAtPercent" INTEGER NOT NULL DEFAULT 80,
ADD COLUMN     "compactKeptTurns" INTEGER NOT NULL DEFAULT 4,
ADD COLUMN     "compactionModel" TEXT,
ADD COLUMN     "contextWindowTokens" INTEGER;

