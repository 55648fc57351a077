import { picosOf, type ClientUsageFieldsFragment as Usage } from '@parley/client';
import { useId } from 'react';
import { useMessages } from './i18n.ts';
import { formatCost, formatCount } from './usage-format.ts';

export interface UsageTableRow {
  /** Stable and unique in its table (an id, a model, a day). */
  readonly key: string;
  readonly label: string;
  readonly usage: Usage;
}

/** The most spent first (compared exactly, as amounts), then by name. */
function bySpend(a: UsageTableRow, b: UsageTableRow): number {
  const difference = picosOf(b.usage.pricedCost.amount) - picosOf(a.usage.pricedCost.amount);
  return difference !== 0n ? (difference > 0n ? 1 : -1) : a.label.localeCompare(b.label);
}

interface UsageTableProps {
  title: string;
  keyColumn: string;
  rows: UsageTableRow[];
  total?: Usage | null;
  /** 'spend': the most spent first; 'given': as the rows come (days in order). */
  order?: 'spend' | 'given';
}

/** One grouping of a project's usage: a row per user, model, agent or day, with tokens by kind and cost. */
export function UsageTable({ title, keyColumn, rows, total, order = 'spend' }: UsageTableProps) {
  const t = useMessages();
  const titleId = useId();
  const columns = t.columns;
  const cells = (usage: Usage) => (
    <>
      <td>{formatCount(usage.inputTokens, t)}</td>
      <td>{formatCount(usage.cachedInputTokens, t)}</td>
      <td>{formatCount(usage.cacheWriteTokens, t)}</td>
      <td>{formatCount(usage.outputTokens, t)}</td>
      <td>{formatCount(usage.reasoningTokens, t)}</td>
      <td>{formatCount(usage.modelCalls, t)}</td>
      <td className="cost">{formatCost(usage, t)}</td>
    </>
  );
  return (
    <section className="usage-group" aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      {rows.length === 0 ? (
        <p className="hint">{t.noUsage}</p>
      ) : (
        <div className="table-scroll">
          <table className="usage-table" aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">{keyColumn}</th>
                <th scope="col">{columns.input}</th>
                <th scope="col">{columns.cached}</th>
                <th scope="col">{columns.cacheWrite}</th>
                <th scope="col">{columns.output}</th>
                <th scope="col">{columns.reasoning}</th>
                <th scope="col">{columns.calls}</th>
                <th scope="col">{columns.cost}</th>
              </tr>
            </thead>
            <tbody>
              {(order === 'spend' ? [...rows].sort(bySpend) : rows).map((row) => (
                <tr key={row.key} data-key={row.key}>
                  <th scope="row">{row.label}</th>
                  {cells(row.usage)}
                </tr>
              ))}
            </tbody>
            {total && rows.length > 1 && (
              <tfoot>
                <tr>
                  <th scope="row">{t.totalRow}</th>
                  {cells(total)}
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
    </section>
  );
}
