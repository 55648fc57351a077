import {
  formatMoney,
  picosOf,
  ProjectBudgetsReportDocument,
  RemoveProjectBudgetDocument,
  SetProjectBudgetDocument,
  type ProjectBudgetsReportQuery,
} from '@parley/client';
import { useAction, useParleyClient, useParleyQuery } from '@parley/client/react';
import { useId, useState, type FormEvent } from 'react';
import { useMessages } from './i18n.ts';

type Budget = ProjectBudgetsReportQuery['project']['budgets'][number];
type Agent = ProjectBudgetsReportQuery['project']['agents'][number];

/**
 * A project's budgets in money, each with what is spent of it now as a gauge (of a per-user budget,
 * the reader's own share), for every member; its admins add, change and remove them here.
 */
export function BudgetsPanel({ projectId, admin }: { projectId: string; admin: boolean }) {
  const t = useMessages();
  const report = useParleyQuery(ProjectBudgetsReportDocument, { projectId });
  const project = report.data?.project;
  const refetch = async () => {
    await report.refetch();
  };
  return (
    <section className="budgets" aria-labelledby="budgets-title" aria-busy={report.loading}>
      <h3 id="budgets-title">{t.budgets}</h3>
      {report.error && (
        <p role="alert" className="notice">
          {report.error.message}
        </p>
      )}
      {project &&
        (project.budgets.length === 0 ? (
          <p className="hint">{t.noBudgets}</p>
        ) : (
          <ul className="budget-list">
            {project.budgets.map((budget) => (
              <BudgetItem key={budget.id} budget={budget} admin={admin} onChanged={refetch} />
            ))}
          </ul>
        ))}
      {project && admin && <AddBudgetForm projectId={projectId} agents={project.agents} currency={project.budgets[0]?.amount.currency} onSaved={refetch} />}
    </section>
  );
}

function useBudgetName() {
  const t = useMessages();
  return (budget: Budget) => t.budgetName(budget.agent?.name ?? t.allAgents, budget.perUser ? t.eachUser : t.everyone, budget.period === 'DAY' ? t.daily : t.monthly);
}

function BudgetItem({ budget, admin, onChanged }: { budget: Budget; admin: boolean; onChanged: () => Promise<void> }) {
  const t = useMessages();
  const client = useParleyClient();
  const nameOf = useBudgetName();
  const titleId = useId();
  const [remove, removing] = useAction(async (budgetId: string) => {
    const result = await client.request(RemoveProjectBudgetDocument, { budgetId });
    return result.__typename === 'RequestError' ? result : result.removeBudget;
  });
  const name = nameOf(budget);
  // A whole percentage from exact amounts: the gauge shows it, the text gives the amounts.
  const amount = picosOf(budget.amount.amount);
  const percent = amount > 0n ? Number((picosOf(budget.spent.amount) * 100n) / amount) : 0;
  const money = (value: Budget['amount']) => formatMoney(value, t.numberLocale);
  const removeIt = async () => {
    const result = await remove(budget.id);
    if (result.__typename === 'BudgetRemoved') await onChanged();
  };
  return (
    <li className="budget" aria-labelledby={titleId}>
      <span id={titleId} className="budget-name">
        {name}
      </span>
      <meter min={0} max={100} low={budget.warnAtPercent} high={100} optimum={0} value={Math.min(percent, 100)} aria-label={name} />
      <span className="budget-spent">
        {t.budgetSpent(money(budget.spent), money(budget.amount))} {budget.perUser && t.yourShare}
      </span>
      <span className="hint">{t.budgetResets(new Date(budget.resetsAt).toISOString().slice(0, 10))}</span>
      {admin && (
        <button type="button" aria-label={t.removeBudgetOf(name)} disabled={removing.pending} onClick={() => void removeIt()}>
          {t.removeBudget}
        </button>
      )}
      {removing.error && (
        <p role="alert" className="notice">
          {removing.error.message}
        </p>
      )}
    </li>
  );
}

/** Agent (or all), for whom, period and amount; the server checks the amount and says what is wrong. */
function AddBudgetForm({ projectId, agents, currency, onSaved }: { projectId: string; agents: readonly Agent[]; currency?: string; onSaved: () => Promise<void> }) {
  const t = useMessages();
  const client = useParleyClient();
  const [agentId, setAgentId] = useState('');
  const [perUser, setPerUser] = useState(true);
  const [period, setPeriod] = useState<'DAY' | 'MONTH'>('MONTH');
  const [amount, setAmount] = useState('');
  const [saved, setSaved] = useState(false);
  const [save, saving] = useAction(async () => {
    const result = await client.request(SetProjectBudgetDocument, { projectId, agentId: agentId || null, perUser, period, amount: amount.trim() });
    return result.__typename === 'RequestError' ? result : result.setBudget;
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const result = await save();
    if (result.__typename !== 'Budget') return;
    setAmount('');
    setSaved(true);
    await onSaved();
  };
  return (
    <form className="add-budget" aria-labelledby="add-budget-title" onSubmit={(event) => void submit(event)}>
      <h4 id="add-budget-title">{t.addBudget}</h4>
      <label>
        <span>{t.budgetAgent}</span>
        <select value={agentId} onChange={(event) => setAgentId(event.target.value)}>
          <option value="">{t.allAgents}</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t.budgetWho}</span>
        <select value={perUser ? 'user' : 'shared'} onChange={(event) => setPerUser(event.target.value === 'user')}>
          <option value="user">{t.eachUser}</option>
          <option value="shared">{t.everyone}</option>
        </select>
      </label>
      <label>
        <span>{t.budgetPeriod}</span>
        <select value={period} onChange={(event) => setPeriod(event.target.value as 'DAY' | 'MONTH')}>
          <option value="DAY">{t.daily}</option>
          <option value="MONTH">{t.monthly}</option>
        </select>
      </label>
      <label>
        <span>{t.budgetAmount(currency ?? '')}</span>
        <input value={amount} required inputMode="decimal" autoComplete="off" aria-invalid={(saving.error && 'field' in saving.error) || undefined} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <button type="submit" disabled={saving.pending}>
        {t.saveBudget}
      </button>
      <p className="hint">{t.budgetHint}</p>
      {saving.error && (
        <p role="alert" className="notice">
          {saving.error.message}
        </p>
      )}
      {saved && <p role="status">{t.budgetSaved}</p>}
    </form>
  );
}
