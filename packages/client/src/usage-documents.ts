import { graphql } from './gql/gql.ts';

// Usage and cost as an app shows them (docs/usage.md): a reply's, read from its run once the run
// has ended, and a project's over a range, by day, user, model and agent. A project's admins read
// the whole project; any other member reads only their own rows (the server filters).

export const ClientUsageFieldsFragment = graphql(`
  fragment ClientUsageFields on Usage {
    inputTokens cachedInputTokens cacheWriteTokens outputTokens reasoningTokens modelCalls unpricedCalls
    cost { amount currency }
    pricedCost { amount currency }
  }
`);

/** A reply's usage: its execution's total, its delegated children included. */
export const ReplyUsageDocument = graphql(`
  query ReplyUsage($executionId: ID!) {
    node(id: $executionId) {
      __typename id
      ... on Execution { usage { total { ...ClientUsageFields } delegated { modelCalls } } }
    }
  }
`);

/** A project's usage from `from` (inclusive) to `to` (exclusive): in all, per UTC day, per user, per model, per agent. */
export const ProjectUsageReportDocument = graphql(`
  query ProjectUsageReport($projectId: ID!, $from: DateTime!, $to: DateTime!) {
    viewer { id email }
    total: usage(projectId: $projectId, from: $from, to: $to) { usage { ...ClientUsageFields } }
    byDay: usage(projectId: $projectId, from: $from, to: $to, groupBy: [DAY]) { day usage { ...ClientUsageFields } }
    byUser: usage(projectId: $projectId, from: $from, to: $to, groupBy: [USER]) { userId user { id email } usage { ...ClientUsageFields } }
    byModel: usage(projectId: $projectId, from: $from, to: $to, groupBy: [MODEL]) { model usage { ...ClientUsageFields } }
    byAgent: usage(projectId: $projectId, from: $from, to: $to, groupBy: [AGENT]) { agentId agent { id name } usage { ...ClientUsageFields } }
  }
`);

/** A project's budgets in money with what is spent of each now (a per-user budget: the viewer's share), and its agents to name them. */
export const ProjectBudgetsReportDocument = graphql(`
  query ProjectBudgetsReport($projectId: ID!) {
    project(id: $projectId) {
      id
      agents { id name }
      budgets {
        id agentId perUser period warnAtPercent resetsAt
        agent { id name }
        amount { amount currency }
        spent { amount currency }
      }
    }
  }
`);

/** A project admin's: caps the spend of the project (or one agent) per UTC day or month, for everyone or each user. */
export const SetProjectBudgetDocument = graphql(`
  mutation SetProjectBudget($projectId: ID!, $agentId: ID, $perUser: Boolean!, $period: BudgetPeriod!, $amount: String!) {
    setBudget(projectId: $projectId, agentId: $agentId, perUser: $perUser, period: $period, amount: $amount) {
      __typename
      ... on Budget { id }
      ...ClientErrorFields
    }
  }
`);

export const RemoveProjectBudgetDocument = graphql(`
  mutation RemoveProjectBudget($budgetId: ID!) {
    removeBudget(budgetId: $budgetId) {
      __typename
      ... on BudgetRemoved { budgetId }
      ...ClientErrorFields
    }
  }
`);
