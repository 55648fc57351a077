import { ProjectUsageReportDocument, type AppViewerQuery, type ProjectUsageReportQuery } from '@parley/client';
import { useParleyQuery } from '@parley/client/react';
import { useEffect, useRef, useState } from 'react';
import { BudgetsPanel } from './BudgetsPanel.tsx';
import { useMessages } from './i18n.ts';
import { SpendChart } from './UsageChart.tsx';
import { formatCost } from './usage-format.ts';
import { apiRange, lastDays, monthRange, rangeProblem, type DayRange } from './usage-range.ts';
import { UsageTable } from './UsageTable.tsx';

type Report = ProjectUsageReportQuery;
type Project = Pick<AppViewerQuery['viewer']['projects'][number], 'id' | 'name' | 'viewerRole'>;

/**
 * A project's usage over a range of UTC days (this month at first): spend per day as a chart, and
 * tables per user, model and agent with tokens by kind and cost. The server decides what the
 * reader sees: a project's admins the whole project, any other member only their own usage, so
 * the page says "Your usage" to them.
 */
export function UsagePage({ project, onClose }: { project: Project; onClose: () => void }) {
  const t = useMessages();
  const heading = useRef<HTMLHeadingElement>(null);
  const [range, setRange] = useState<DayRange>(() => monthRange(Date.now()));
  const problem = rangeProblem(range);
  const valid = problem === null;
  // A range with a problem is not asked for (skipped); its variables need only be well-formed.
  const report = useParleyQuery(ProjectUsageReportDocument, { projectId: project.id, ...apiRange(valid ? range : monthRange(Date.now())) }, { skip: !valid });
  const data = report.data;
  const admin = project.viewerRole === 'ADMIN';

  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="settings usage-page" aria-labelledby="usage-title" aria-busy={report.loading}>
      <div className="settings-top">
        <h2 id="usage-title" ref={heading} tabIndex={-1}>
          {admin ? t.usageOf(project.name) : t.yourUsageIn(project.name)}
        </h2>
        <button type="button" onClick={onClose}>
          {t.backToChat}
        </button>
      </div>
      {!admin && <p className="hint">{t.memberUsageHint}</p>}
      <RangePicker range={range} onChange={setRange} />
      {problem && (
        <p role="alert" className="notice">
          {t.rangeProblems[problem]}
        </p>
      )}
      {report.error && (
        <p role="alert" className="notice">
          {report.error.message}
        </p>
      )}
      <BudgetsPanel projectId={project.id} admin={admin} />
      {data && valid && <UsageReport report={data} range={range} />}
    </section>
  );
}

function RangePicker({ range, onChange }: { range: DayRange; onChange: (range: DayRange) => void }) {
  const t = useMessages();
  const presets: [string, () => DayRange][] = [
    [t.thisMonth, () => monthRange(Date.now())],
    [t.lastMonth, () => monthRange(Date.now(), -1)],
    [t.last30Days, () => lastDays(Date.now(), 30)],
  ];
  return (
    <fieldset className="usage-range">
      <legend>{t.usageRange}</legend>
      <label>
        <span>{t.usageFrom}</span>
        <input type="date" value={range.from} max={range.to} onChange={(event) => onChange({ ...range, from: event.target.value })} />
      </label>
      <label>
        <span>{t.usageTo}</span>
        <input type="date" value={range.to} min={range.from} onChange={(event) => onChange({ ...range, to: event.target.value })} />
      </label>
      <span className="usage-presets">
        {presets.map(([label, pick]) => (
          <button key={label} type="button" onClick={() => onChange(pick())}>
            {label}
          </button>
        ))}
      </span>
      <p className="hint">{t.utcDays}</p>
    </fieldset>
  );
}

function UsageReport({ report, range }: { report: Report; range: DayRange }) {
  const t = useMessages();
  const total = report.total[0]?.usage ?? null;
  const viewer = report.viewer;
  const userLabel = (row: Report['byUser'][number]) => {
    const email = row.user?.email ?? (row.userId === viewer.id ? viewer.email : null);
    const who = email ?? t.someUser(shortId(row.userId));
    return row.userId === viewer.id ? t.itsYou(who) : who;
  };
  return (
    <>
      {total ? <p className="usage-total">{t.usageTotal(formatCost(total, t))}</p> : <p className="hint">{t.noUsage}</p>}
      <SpendChart range={range} days={report.byDay} />
      <details className="usage-days">
        <summary>{t.perDay}</summary>
        <UsageTable
          title={t.perDay}
          keyColumn={t.columns.day}
          order="given"
          rows={[...report.byDay].sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '')).map((row) => ({ key: row.day ?? '', label: row.day ?? '', usage: row.usage }))}
        />
      </details>
      <UsageTable
        title={t.perUser}
        keyColumn={t.columns.user}
        total={total}
        rows={report.byUser.map((row) => ({ key: row.userId ?? '', label: userLabel(row), usage: row.usage }))}
      />
      <UsageTable
        title={t.perModel}
        keyColumn={t.columns.model}
        total={total}
        rows={report.byModel.map((row) => ({ key: row.model ?? '', label: row.model ?? '', usage: row.usage }))}
      />
      <UsageTable
        title={t.perAgent}
        keyColumn={t.columns.agent}
        total={total}
        rows={report.byAgent.map((row) => ({ key: row.agentId ?? '', label: row.agent?.name ?? t.deletedAgent(shortId(row.agentId)), usage: row.usage }))}
      />
    </>
  );
}

/** The end of a global id, enough to tell rows apart where no name may be shown (ids end in their own part). */
function shortId(id: string | null | undefined): string {
  return `…${(id ?? '').replace(/=+$/, '').slice(-6)}`;
}
