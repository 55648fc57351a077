-- AlterTable
ALTER TABLE "attachment" DROP COLUMN "data",
ADD COLUMN     "dataBase64" TEXT NOT NULL;

