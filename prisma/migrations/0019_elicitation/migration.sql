-- AlterEnum
ALTER TYPE "SuspensionKind" ADD VALUE 'ELICITATION';

