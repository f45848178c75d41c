import type { Config } from '../config.js';
import type { TaskItem } from '../tasks/model.js';

/** "3 minute", "60 second", "1.5 second": the limit as people say it. */
export function formatLimit(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} minute`;
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} second`;
}

/** The error a run gets when it outlives its budget (SPEC §3: names the limit). */
export function budgetExceededMessage(kind: TaskItem['kind'], budgetMs: number): string {
  return kind === 'agent'
    ? `Task exceeded the ${formatLimit(budgetMs)} time limit`
    : `Design extraction exceeded its ${formatLimit(budgetMs)} limit`;
}

export interface Budgets {
  designBudgetMs: number;
  agentBudgetMs: number;
  graceMs: number;
}

export const budgetFor = (kind: TaskItem['kind'], b: Budgets): number =>
  kind === 'agent' ? b.agentBudgetMs : b.designBudgetMs;

/** The configured budgets (BTS_DESIGN_BUDGET_MS, BTS_AGENT_BUDGET_MS, BTS_SWEEP_GRACE_MS). */
export const budgetsOf = (
  c: Pick<Config, 'BTS_DESIGN_BUDGET_MS' | 'BTS_AGENT_BUDGET_MS' | 'BTS_SWEEP_GRACE_MS'>,
): Budgets => ({
  designBudgetMs: c.BTS_DESIGN_BUDGET_MS,
  agentBudgetMs: c.BTS_AGENT_BUDGET_MS,
  graceMs: c.BTS_SWEEP_GRACE_MS,
});
