import { InvalidInputError } from '../domain/errors.ts';
import { splitToolName } from './tool-catalog.ts';

export const TOOL_APPROVALS = ['ALWAYS', 'NEVER'] as const;
export type ToolApproval = (typeof TOOL_APPROVALS)[number];

/** An agent's approval policy for one tool (`<server>/<tool>`) or a server's every tool (`<server>/*`). */
export interface ToolApprovalRule {
  tool: string;
  approval: ToolApproval;
}

export function parseApprovals(value: unknown): ToolApprovalRule[] {
  return Array.isArray(value) ? (value as ToolApprovalRule[]) : [];
}

/** The rule for the tool itself wins over its server's `*`; without either, a tool asks (ALWAYS). */
export function approvalOf(rules: readonly ToolApprovalRule[], qualified: string): ToolApproval {
  const exact = rules.find((rule) => rule.tool === qualified);
  if (exact) return exact.approval;
  const server = splitToolName(qualified)?.server;
  return rules.find((rule) => rule.tool === `${server}/*`)?.approval ?? 'ALWAYS';
}

/** Checks the rules' shape; whether their tools exist is checked with the agent's tools. */
export function validApprovals(rules: readonly ToolApprovalRule[]): ToolApprovalRule[] {
  const byTool = new Map<string, ToolApprovalRule>();
  for (const rule of rules) {
    if (!splitToolName(rule.tool)) {
      throw new InvalidInputError('toolApprovals', `${rule.tool} is not a tool of a tool server (<server>/<tool> or <server>/*).`);
    }
    if (!TOOL_APPROVALS.includes(rule.approval)) throw new InvalidInputError('toolApprovals', 'approval must be ALWAYS or NEVER.');
    byTool.set(rule.tool, { tool: rule.tool, approval: rule.approval });
  }
  return [...byTool.values()];
}
