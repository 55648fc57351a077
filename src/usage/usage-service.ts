import type { AccessPolicy } from '../auth/access.ts';
import { InvalidInputError } from '../domain/errors.ts';
import { Prisma, type PrismaClient, type User } from '../generated/prisma/client.ts';
import { sumColumns, sumsOf, type UsageSums } from './usage-reads.ts';

export type UsageGrouping = 'DAY' | 'MONTH' | 'MODEL' | 'USER' | 'AGENT';

/** One row of a project's usage: the keys it is grouped by (the others null) and its sums. */
export interface UsageRow {
  day: string | null;
  month: string | null;
  modelId: string | null;
  userId: string | null;
  agentId: string | null;
  usage: UsageSums;
}

/** The most rows one usage query answers: more is refused, never cut short. */
export const MAX_USAGE_ROWS = 1_000;

/** The longest range one usage query reads. */
export const MAX_USAGE_RANGE_DAYS = 366;

/** Each grouping's key: a fixed expression over model_call (UTC days and months). */
const GROUP_KEYS: Record<UsageGrouping, { column: keyof Omit<UsageRow, 'usage'>; expression: Prisma.Sql }> = {
  DAY: { column: 'day', expression: Prisma.sql`to_char("createdAt", 'YYYY-MM-DD')` },
  MONTH: { column: 'month', expression: Prisma.sql`to_char("createdAt", 'YYYY-MM')` },
  MODEL: { column: 'modelId', expression: Prisma.sql`"modelId"` },
  USER: { column: 'userId', expression: Prisma.sql`"userId"` },
  AGENT: { column: 'agentId', expression: Prisma.sql`"agentId"` },
};

/**
 * A project's usage over a range: its admins read everyone's, any other member their own, anyone
 * else nothing (the project is not found, as elsewhere).
 */
export class UsageService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: Pick<AccessPolicy, 'projectRole'>,
  ) {}

  async projectUsage(viewer: User, projectId: string, from: Date, to: Date, groupBy: readonly UsageGrouping[]): Promise<UsageRow[]> {
    if (from.getTime() > to.getTime()) throw new InvalidInputError('from', 'must not be after `to`.');
    if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_DAYS * 86_400_000) {
      throw new InvalidInputError('to', `the range may span at most ${MAX_USAGE_RANGE_DAYS} days.`);
    }
    const role = await this.access.projectRole(viewer, projectId, 'agent:read');
    const groups = [...new Set(groupBy)];
    const keys = groups.map((group) => Prisma.sql`${GROUP_KEYS[group].expression} AS ${Prisma.raw(`"${GROUP_KEYS[group].column}"`)}`);
    const ownOnly = role === 'ADMIN' ? Prisma.empty : Prisma.sql`AND "userId" = ${viewer.id}`;
    const positions = groups.length ? Prisma.join(groups.map((_, index) => Prisma.raw(String(index + 1)))) : null;
    const grouping = positions ? Prisma.sql`GROUP BY ${positions} ORDER BY ${positions}` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT ${Prisma.join([...keys, sumColumns('')])}
      FROM "model_call"
      WHERE "projectId" = ${projectId} AND "createdAt" >= ${utc(from)}::timestamp(3) AND "createdAt" < ${utc(to)}::timestamp(3) ${ownOnly}
      ${grouping}
      LIMIT ${MAX_USAGE_ROWS + 1}`;
    if (rows.length > MAX_USAGE_ROWS) {
      throw new InvalidInputError('groupBy', `the report would have more than ${MAX_USAGE_ROWS} rows: group by less, or read a shorter range.`);
    }
    return rows
      .filter((row) => groups.length > 0 || Number(row.modelCalls) > 0)
      .map((row) => ({
        day: (row.day as string | undefined) ?? null,
        month: (row.month as string | undefined) ?? null,
        modelId: (row.modelId as string | undefined) ?? null,
        userId: (row.userId as string | undefined) ?? null,
        agentId: (row.agentId as string | undefined) ?? null,
        usage: sumsOf(row, ''),
      }));
  }
}

/** A \`::timestamp\` cast ignores the zone of ISO text, so the UTC instant is what the column is compared with. */
function utc(date: Date): string {
  return date.toISOString();
}
