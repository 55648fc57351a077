-- Stdio tool servers the operator declares (PARLEY_TOOL_SERVERS_FILE): no project of their own, the
-- projects that may use them listed instead.
-- AlterTable
ALTER TABLE "tool_server" ADD COLUMN     "projects" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "transport" TEXT NOT NULL DEFAULT 'HTTP',
ALTER COLUMN "projectId" DROP NOT NULL;

