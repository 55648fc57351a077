-- CreateEnum
CREATE TYPE "BudgetPeriod" AS ENUM ('DAY', 'MONTH');

-- CreateTable
CREATE TABLE "budget" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "agentId" TEXT,
    "perUser" BOOLEAN NOT NULL,
    "period" "BudgetPeriod" NOT NULL,
    "amount" DECIMAL(30,12) NOT NULL,
    "warnAtPercent" INTEGER NOT NULL DEFAULT 80,
    "scope" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "budget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "budget_reservation" (
    "budgetId" TEXT NOT NULL,
    "executionId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "amount" DECIMAL(30,12) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "budget_reservation_pkey" PRIMARY KEY ("budgetId","executionId")
);

-- CreateTable
CREATE TABLE "budget_warning" (
    "budgetId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "budget_warning_pkey" PRIMARY KEY ("budgetId","userId","periodStart")
);

-- CreateIndex
CREATE UNIQUE INDEX "budget_projectId_scope_key" ON "budget"("projectId", "scope");

-- CreateIndex
CREATE INDEX "budget_reservation_budgetId_expiresAt_idx" ON "budget_reservation"("budgetId", "expiresAt");

-- AddForeignKey
ALTER TABLE "budget" ADD CONSTRAINT "budget_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget" ADD CONSTRAINT "budget_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_reservation" ADD CONSTRAINT "budget_reservation_budgetId_fkey" FOREIGN KEY ("budgetId") REFERENCES "budget"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_warning" ADD CONSTRAINT "budget_warning_budgetId_fkey" FOREIGN KEY ("budgetId") REFERENCES "budget"("id") ON DELETE CASCADE ON UPDATE CASCADE;

