import type { KnowledgeIndex, SiteEntry } from '../knowledge/index.js';
import { takeSnapshot } from '../browser/snapshot.js';
import type { TaskItem } from '../tasks/model.js';
import type { AgentBrowser } from './agent-browser.js';

/**
 * What the model reads: the system prompt, the previous turns of the session, and each
 * step's observation (the page snapshot with refs, trimmed to a budget so a long page
 * cannot eat the context window). Only the latest observation is sent; older pages live
 * on in the tool results the model already saw.
 */
export const OBSERVATION_MAX_CHARS = 8_000;
export const OBSERVATION_HEADER = '## Current page';
const TURN_RESULT_MAX_CHARS = 1_500;
const MAX_HISTORY_TURNS = 10;

export function systemPrompt(opts: {
  schema?: Record<string, unknown>;
  maxSteps: number;
  budgetLabel: string;
}): string {
  const lines = [
    "You are a browser agent. You complete the user's task by operating a real web browser through tools, then call `done`.",
    'Each step you get the current page as an accessibility snapshot; elements carry refs like [ref=e12] for click, fill and interact.',
    'Prefer reading tools (content_get_markdown, extract_page_summary, extract) over guessing. Never invent facts that are not on a page.',
    'If a ref is stale, take a fresh snapshot or use interact_find. Do not repeat an action that did not work; try something else.',
    `You have at most ${opts.maxSteps} actions and ${opts.budgetLabel}. Call done as soon as you know the answer.`,
    'Text shown as [redacted] is a secret the service hides from you; never try to reveal it.',
  ];
  if (opts.schema) {
    lines.push(
      'The caller wants structured output. Call done with `data` set to a JSON object that conforms to this JSON Schema (draft 2020-12):',
      JSON.stringify(opts.schema),
    );
  }
  return lines.join('\n');
}

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max)}… [cut]` : s);

/** Earlier turns of the session, oldest first, as the conversation so far. */
export function historyText(turns: readonly TaskItem[]): string | undefined {
  const recent = turns.slice(-MAX_HISTORY_TURNS);
  if (recent.length === 0) return undefined;
  const parts = recent.map((t, i) => {
    const outcome =
      t.status === 'completed'
        ? `Result: ${clip(typeof t.result === 'string' ? t.result : JSON.stringify(t.result ?? null), TURN_RESULT_MAX_CHARS)}`
        : `Outcome: ${t.status}${t.error ? ` (${clip(t.error, 300)})` : ''}`;
    return `Turn ${i + 1}\nTask: ${t.task}\n${outcome}`;
  });
  return `Earlier turns of this conversation (the browser continues where the last turn ended):\n\n${parts.join('\n\n')}`;
}

export function taskText(task: string, notes: readonly string[]): string {
  return [`Task: ${task}`, ...notes].join('\n\n');
}

/** The page as the model sees it this step; observing never opens a browser by itself. */
export async function observe(browser: AgentBrowser, maxChars = OBSERVATION_MAX_CHARS): Promise<string> {
  const session = browser.current;
  const url = session?.page.url() ?? 'about:blank';
  if (!session || !/^https?:/.test(url))
    return `${OBSERVATION_HEADER}\nURL: ${url}\n(no page is open: answer with knowledge and lookup when a site's public API can, or navigate to open a page)`;
  const page = session.page;
  const snap = await takeSnapshot(page, {}, maxChars);
  session.rememberRefs(snap.refs);
  const title = await page.title().catch(() => '');
  return `${OBSERVATION_HEADER}\nURL: ${url}\nTitle: ${title}\n\n${snap.text || '(empty page)'}`;
}

export interface StartPoint {
  url: string;
  /** fast_path: from the knowledge index; search: a web search for the task. */
  via: 'fast_path' | 'search';
  site?: SiteEntry;
}

export const SEARCH_URL = 'https://duckduckgo.com/html/?q=';

/** The home page of a site's first domain, or a pattern URL that needs no placeholder. */
function siteStart(e: SiteEntry): string {
  const fixed = e.urlPatterns.map((p) => p.pattern).find((p) => !p.includes('{') && /^https?:\/\//.test(p));
  if (fixed) return fixed;
  const domain = e.domains[0] ?? e.site;
  return /^https?:\/\//.test(domain) ? domain : `https://${domain}/`;
}

/** Discovery without startUrl: a site the index knows for the task, else a web search. */
export function pickStart(task: string, knowledge: KnowledgeIndex): StartPoint {
  const [best] = knowledge.search(task, 1);
  if (best) return { url: siteStart(best), via: 'fast_path', site: best };
  return { url: `${SEARCH_URL}${encodeURIComponent(task.slice(0, 200))}`, via: 'search' };
}

/** The knowledge entry as a hint for the model (URL patterns, endpoints, tips). */
export function siteNotes(e: SiteEntry): string {
  const lines = [`Site knowledge for ${e.name} (${e.domains.join(', ')}):`];
  for (const p of e.urlPatterns) lines.push(`- URL ${p.pattern}: ${p.purpose}`);
  for (const p of e.publicEndpoints) lines.push(`- ${p.method} ${p.url}: ${p.purpose}`);
  for (const t of e.tips) lines.push(`- Tip: ${t}`);
  return lines.join('\n');
}
