/**
 * What `npm start` prints on its first start: the API key, shown once, and curl commands
 * that work on a fresh machine with no model key (a lookup task and a design extraction),
 * plus an agent task when a model is configured.
 */
export interface BannerInput {
  url: string;
  apiKey: string;
  businessId: string;
  modelConfigured: boolean;
}

/** The request bodies the banner shows, kept as data so a test can validate each one. */
export const BANNER_BODIES = {
  lookup: { endUserId: 'user-1', lookup: { site: 'npm', operation: 'package', params: { name: 'zod' } } },
  design: { endUserId: 'user-1', url: 'https://example.com/' },
  agent: { endUserId: 'user-1', task: 'What is the title of https://example.com?' },
} as const;

export function firstStartBanner(b: BannerInput): string[] {
  const auth = `-H "Authorization: Bearer ${b.apiKey}"`;
  const post = (path: string, body: unknown) =>
    `  curl -s -X POST ${b.url}${path} ${auth} -H "Content-Type: application/json" -d '${JSON.stringify(body)}'`;
  const lines = [
    `Created business "${b.businessId}" and an API key (shown only this once):`,
    `  ${b.apiKey}`,
    '',
    'Try it. The latest version of an npm package, through a knowledge-graph recipe (no model, no browser):',
    post('/v1/tasks', BANNER_BODIES.lookup),
    "A page's design (colours, fonts, logo, icons, tokens) in headless Chromium:",
    post('/v1/design/extract', BANNER_BODIES.design),
  ];
  if (b.modelConfigured)
    lines.push('An agent task (your configured model drives the browser):', post('/v1/tasks', BANNER_BODIES.agent));
  lines.push('Then read a task with the taskId each answer gives:', `  curl -s ${b.url}/v1/tasks/TASK_ID ${auth}`);
  if (!b.modelConfigured)
    lines.push('Agent tasks ("task": "…") need a model: set BTS_MODEL_PROVIDER and its key (README, Configuration).');
  return lines;
}
