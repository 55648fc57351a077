-- A tool server that restarted lost the session Parley had with it: the times Parley opened a new one
-- to retry a call it had provably refused, shown with the server (src/tools/lost-session.ts).
-- AlterTable
ALTER TABLE "tool_server" ADD COLUMN     "lastReconnectAt" TIMESTAMP(3),
ADD COLUMN     "reconnects" INTEGER NOT NULL DEFAULT 0;

