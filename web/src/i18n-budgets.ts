// The chat's words for a project's budgets in money (the Usage page), in English and German;
// i18n.ts spreads them into each language's copy.

export const budgetsEn = {
  budgets: 'Budgets',
  noBudgets: 'No budgets: spend is not capped.',
  allAgents: 'All agents',
  everyone: 'everyone together',
  eachUser: 'each user',
  daily: 'per day',
  monthly: 'per month',
  budgetName: (agent: string, who: string, period: string) => `${agent} · ${who} · ${period}`,
  budgetSpent: (spent: string, amount: string) => `${spent} of ${amount} spent`,
  yourShare: '(your share)',
  budgetResets: (when: string) => `resets ${when} (UTC)`,
  removeBudget: 'Remove',
  removeBudgetOf: (name: string) => `Remove the budget ${name}`,
  addBudget: 'Add a budget',
  budgetAgent: 'Agent',
  budgetWho: 'For',
  budgetPeriod: 'Period',
  budgetAmount: (currency: string) => (currency ? `Amount (${currency})` : 'Amount'),
  budgetHint: 'Setting a budget again for the same agent, people and period changes its amount. A reply stops where it reaches the budget.',
  saveBudget: 'Save budget',
  budgetSaved: 'Budget saved.',
  budgetUsedUp: 'Budget used up',
};

export type BudgetMessages = typeof budgetsEn;

export const budgetsDe: BudgetMessages = {
  budgets: 'Budgets',
  noBudgets: 'Keine Budgets: die Ausgaben sind nicht begrenzt.',
  allAgents: 'Alle Agenten',
  everyone: 'alle zusammen',
  eachUser: 'jeder Nutzer',
  daily: 'pro Tag',
  monthly: 'pro Monat',
  budgetName: (agent, who, period) => `${agent} · ${who} · ${period}`,
  budgetSpent: (spent, amount) => `${spent} von ${amount} ausgegeben`,
  yourShare: '(dein Anteil)',
  budgetResets: (when) => `wird ${when} (UTC) zurückgesetzt`,
  removeBudget: 'Entfernen',
  removeBudgetOf: (name) => `Budget ${name} entfernen`,
  addBudget: 'Budget hinzufügen',
  budgetAgent: 'Agent',
  budgetWho: 'Für',
  budgetPeriod: 'Zeitraum',
  budgetAmount: (currency) => (currency ? `Betrag (${currency})` : 'Betrag'),
  budgetHint: 'Ein Budget für denselben Agenten, dieselben Personen und denselben Zeitraum erneut zu setzen, ändert seinen Betrag. Eine Antwort stoppt dort, wo sie das Budget erreicht.',
  saveBudget: 'Budget speichern',
  budgetSaved: 'Budget gespeichert.',
  budgetUsedUp: 'Budget aufgebraucht',
};
