import * as z from 'zod';
import { ParamSpecSchema } from './params.js';
import { parsePath } from './path.js';
import { namesNeedingValue, PARAM_NAME, parseTemplate } from './template.js';

/**
 * One site of the knowledge graph, as stored in `data/knowledgegraphindex/sites/<site>.json`
 * (format documented in that folder's README). Every object is strict: a misspelt key
 * is an error on load rather than a silently ignored fact.
 */

/** Lower-case DNS name of at least two labels, letters in the last one (no IPs, no ports). */
const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const isHostname = (s: string): boolean => HOSTNAME.test(s);

const Hostname = z
  .string()
  .refine(isHostname, { error: (iss) => `${JSON.stringify(iss.input)} is not a well-formed lower-case hostname` });
const HttpsUrl = z.string().refine((s) => /^https:\/\/[^\s/?#]+/.test(s), {
  error: (iss) => `${JSON.stringify(iss.input)} is not an https URL`,
});

/** `host` is one of `domains` or a subdomain of one. */
export const hostBelongs = (host: string, domains: readonly string[]): boolean =>
  domains.some((d) => host === d || host.endsWith(`.${d}`));

const OPERATION_NAME = /^[a-z][a-z0-9-]{0,39}$/;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
/** A list field longer than this is cut; recipes pick their own `limit` up to MAX_LIMIT. */
export const DEFAULT_LIST_LIMIT = 10;
export const MAX_LIST_LIMIT = 100;

export const LookupSchema = z
  .strictObject({
    name: z
      .string()
      .regex(OPERATION_NAME, { error: 'must be lower-case letters, digits and "-", starting with a letter' }),
    description: z.string().min(1),
    params: z
      .record(z.string().regex(PARAM_NAME, { error: 'parameter names are letters, digits and "_"' }), ParamSpecSchema)
      .default({}),
    url: z.string(),
    format: z.enum(['json', 'text']),
    fields: z
      .record(z.string().regex(FIELD_NAME, { error: 'field names are letters, digits and "_"' }), z.string())
      .optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional(),
    docs: HttpsUrl,
  })
  .superRefine((op, ctx) => {
    const problem = (message: string, path: (string | number)[] = []) =>
      ctx.addIssue({ code: 'custom', message, path });
    const t = parseTemplate(op.url);
    if (typeof t === 'string') return problem(`url ${t}`, ['url']);
    for (const name of t.names)
      if (!Object.hasOwn(op.params, name)) problem(`url uses {${name}}, which is not a declared parameter`, ['url']);
    const needed = namesNeedingValue(t);
    for (const [name, spec] of Object.entries(op.params)) {
      if (!t.names.includes(name)) problem(`parameter ${name} is declared but the url never uses it`, ['params', name]);
      else if (needed.has(name) && !spec.required && spec.default === undefined) {
        problem(
          `parameter ${name} fills the url outside a "key={${name}}" query pair, so it must be required or have a default`,
          ['params', name],
        );
      }
      if (spec.slashes && !t.pathNames.has(name))
        problem(`parameter ${name} has slashes but is not used in the path`, ['params', name]);
    }
    if (op.format === 'json' && (!op.fields || Object.keys(op.fields).length === 0))
      problem('a json recipe needs at least one field', ['fields']);
    if (op.format === 'text' && op.fields)
      problem('a text recipe returns the text itself and takes no fields', ['fields']);
    let lists = 0;
    for (const [name, source] of Object.entries(op.fields ?? {})) {
      const parsed = parsePath(source);
      if (typeof parsed === 'string') problem(`path "${source}" ${parsed}`, ['fields', name]);
      else if (parsed.hasEach) lists += 1;
    }
    if (op.limit !== undefined && lists === 0)
      problem('limit is set but no field is a list (none uses "[]")', ['limit']);
  });
export type Lookup = z.infer<typeof LookupSchema>;

export const SiteEntrySchema = z
  .strictObject({
    site: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: 'site ids are lower-case letters, digits and "-"' }),
    name: z.string().min(1),
    domains: z.array(Hostname).min(1),
    categories: z.array(z.string().min(1)).default([]),
    goals: z.array(z.string().min(1)).default([]),
    urlPatterns: z.array(z.strictObject({ pattern: HttpsUrl, purpose: z.string().min(1) })).default([]),
    publicEndpoints: z
      .array(
        z.strictObject({
          method: z.enum(['GET', 'POST']).default('GET'),
          url: HttpsUrl,
          purpose: z.string().min(1),
          auth: z.string().min(1).default('none'),
        }),
      )
      .default([]),
    login: z.strictObject({
      required: z.boolean(),
      for: z.array(z.string().min(1)).default([]),
      notes: z.string().min(1).optional(),
    }),
    tips: z.array(z.string().min(1)).default([]),
    lookups: z.array(LookupSchema).default([]),
  })
  .superRefine((e, ctx) => {
    const problem = (message: string, path: (string | number)[]) => ctx.addIssue({ code: 'custom', message, path });
    const seenDomains = new Set<string>();
    e.domains.forEach((d, i) => {
      if (seenDomains.has(d)) problem(`domain ${d} is listed twice`, ['domains', i]);
      seenDomains.add(d);
    });
    const seenOps = new Set<string>();
    e.lookups.forEach((op, i) => {
      if (seenOps.has(op.name)) problem(`operation name "${op.name}" is used twice`, ['lookups', i, 'name']);
      seenOps.add(op.name);
      const t = parseTemplate(op.url);
      // The host must be one of the site's own domains: a recipe speaks for this site only.
      if (typeof t !== 'string' && !hostBelongs(t.host, e.domains)) {
        problem(`url host ${t.host} is not one of the site's domains (${e.domains.join(', ')}) or a subdomain of one`, [
          'lookups',
          i,
          'url',
        ]);
      }
    });
  });
export type SiteEntry = z.infer<typeof SiteEntrySchema>;
/** The file form: defaults may be left out. */
export type SiteEntryInput = z.input<typeof SiteEntrySchema>;

/** A request for one recipe, as the lookup tool and the task API receive it. */
export const LookupRequestSchema = z.strictObject({
  site: z.string().min(1),
  operation: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
});
export type LookupRequest = z.input<typeof LookupRequestSchema>;
