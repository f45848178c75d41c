import type { TaskUsage } from '../tasks/model.js';

/**
 * Token usage and model cost of one task, kept on the task item (`usage`, an extra field
 * the spec allows). Prices are list prices in USD per million tokens; a model missing
 * from the table (a local vLLM, a gateway alias) gets `costUsd: null` rather than a guess.
 */
export interface TokenCounts {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
}

interface Price {
  match: RegExp;
  inputPerM: number;
  outputPerM: number;
}

/** Most specific patterns first: "gpt-4.1-mini" must not be priced as "gpt-4.1". */
const PRICES: Price[] = [
  { match: /claude-(3-)?opus|claude-opus-4/, inputPerM: 15, outputPerM: 75 },
  { match: /claude-haiku-4/, inputPerM: 1, outputPerM: 5 },
  { match: /claude-3-5-haiku|claude-3-haiku/, inputPerM: 0.8, outputPerM: 4 },
  { match: /claude-(3-[57]-)?sonnet|claude-sonnet-4/, inputPerM: 3, outputPerM: 15 },
  { match: /gpt-4\.1-nano/, inputPerM: 0.1, outputPerM: 0.4 },
  { match: /gpt-4\.1-mini/, inputPerM: 0.4, outputPerM: 1.6 },
  { match: /gpt-4\.1/, inputPerM: 2, outputPerM: 8 },
  { match: /gpt-4o-mini/, inputPerM: 0.15, outputPerM: 0.6 },
  { match: /gpt-4o/, inputPerM: 2.5, outputPerM: 10 },
];

export function priceOf(modelId: string): Price | undefined {
  const id = modelId.toLowerCase();
  return PRICES.find((p) => p.match.test(id));
}

export class UsageMeter {
  private readonly totals: TaskUsage;

  constructor(provider: string, model: string) {
    this.totals = {
      provider,
      model,
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      costUsd: null,
      modelMs: 0,
    };
  }

  add(counts: TokenCounts, modelMs: number): void {
    const t = this.totals;
    t.modelCalls += 1;
    t.inputTokens += counts.inputTokens ?? 0;
    t.outputTokens += counts.outputTokens ?? 0;
    t.totalTokens += counts.totalTokens ?? (counts.inputTokens ?? 0) + (counts.outputTokens ?? 0);
    t.modelMs += Math.round(modelMs);
    const price = priceOf(t.model);
    // Rounded to a micro-dollar: enough for billing reports, stable in tests.
    t.costUsd = price
      ? Math.round(((t.inputTokens * price.inputPerM + t.outputTokens * price.outputPerM) / 1e6) * 1e6) / 1e6
      : null;
  }

  snapshot(): TaskUsage {
    return { ...this.totals };
  }
}
