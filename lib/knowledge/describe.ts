import type { ParamSpec } from './params.js';
import type { Lookup, SiteEntry } from './schemas.js';

/**
 * The text a model reads about one site: enough to call a lookup correctly on the first
 * try (operation names, every parameter with its type, constraints and default, the
 * fields that come back) or to browse the site (URL patterns, login needs, tips).
 */
function describeParam(name: string, p: ParamSpec): string {
  const facts: string[] = [p.type, p.required ? 'required' : 'optional'];
  if (p.enum) facts.push(`one of ${p.enum.join('|')}`);
  if (p.default !== undefined) facts.push(`default ${JSON.stringify(p.default)}`);
  if (p.minimum !== undefined || p.maximum !== undefined) facts.push(`${p.minimum ?? '…'} to ${p.maximum ?? '…'}`);
  if (p.pattern !== undefined) facts.push(`matches ${p.pattern}`);
  return `${name} (${facts.join(', ')}): ${p.description}`;
}

function describeLookup(op: Lookup): string[] {
  const lines = [`- ${op.name}: ${op.description}`];
  const params = Object.entries(op.params);
  lines.push(
    params.length > 0 ? `  params: ${params.map(([n, p]) => describeParam(n, p)).join('; ')}` : '  params: none',
  );
  lines.push(
    op.format === 'text'
      ? '  returns: text (trimmed, long documents cut)'
      : `  returns: ${Object.keys(op.fields ?? {}).join(', ')}`,
  );
  return lines;
}

export function describeSite(e: SiteEntry): string {
  const lines = [
    `${e.name} [site id: ${e.site}] (${e.domains.join(', ')})${e.categories.length > 0 ? ` — ${e.categories.join(', ')}` : ''}`,
  ];
  const needs = e.login.for.length > 0 ? ` (an account is needed for: ${e.login.for.join(', ')})` : '';
  lines.push(
    `Login: ${e.login.required ? 'required' : 'not required'}${needs}.${e.login.notes ? ` ${e.login.notes}` : ''}`,
  );
  if (e.lookups.length > 0) {
    lines.push(`Lookups (answer without a browser: call lookup with site "${e.site}", an operation and params):`);
    for (const op of e.lookups) lines.push(...describeLookup(op));
  }
  if (e.urlPatterns.length > 0) {
    lines.push('URL patterns:');
    for (const p of e.urlPatterns) lines.push(`- ${p.pattern}: ${p.purpose}`);
  }
  // Endpoints already wrapped by a recipe would only repeat it.
  const recipeUrls = new Set(e.lookups.map((op) => op.url.split('?')[0]));
  const endpoints = e.publicEndpoints.filter((p) => !recipeUrls.has(p.url.split('?')[0]));
  if (endpoints.length > 0) {
    lines.push('Other public endpoints:');
    for (const p of endpoints) lines.push(`- ${p.method} ${p.url}: ${p.purpose} (auth: ${p.auth})`);
  }
  if (e.tips.length > 0) {
    lines.push('Tips:');
    for (const t of e.tips) lines.push(`- ${t}`);
  }
  return lines.join('\n');
}
