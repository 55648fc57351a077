-- One running or suspended top-level execution per thread, enforced by the database so that no
-- race between instances can ever start a second one (delegated children have a parent).
CREATE UNIQUE INDEX "execution_one_active_per_thread" ON "execution" ("threadId")
  WHERE "status" IN ('RUNNING', 'SUSPENDED') AND "parentExecutionId" IS NULL;
