import * as z from 'zod';

/**
 * The `design` field of a design task (SPEC §2.3). It lives with the task record because
 * it is part of what GET /v1/tasks/{taskId} returns; the extractors in lib/design build
 * values of these types, so the OpenAPI document and the extractors cannot disagree.
 */
export const EXTRACTORS = ['images', 'fonts', 'colors', 'icons', 'tokens', 'logo'] as const;
export const ExtractorNameSchema = z.enum(EXTRACTORS).describe('A design extractor');
export type ExtractorName = z.infer<typeof ExtractorNameSchema>;

/** Inline markup or data URIs cut at their cap (lib/design/inline-cap.ts) name their fields here. */
const truncatedField = {
  truncated: z.array(z.string()).optional().describe('Fields cut at their inline size cap; the stored copy is whole'),
};

/** Where a stored copy of an asset can be fetched: presigned, so it expires. */
const stored = {
  downloadUrl: z.string().optional().describe('Presigned URL of the stored copy; expires'),
  s3Key: z.string().optional().describe('Object key of the stored copy'),
};

export const ImageEntrySchema = z.object({
  src: z.string(),
  type: z.enum(['img', 'picture', 'background', 'svg']),
  naturalWidth: z.number(),
  naturalHeight: z.number(),
  alt: z.string(),
  svgSource: z.string().optional().describe('Markup of an inline SVG image'),
  originalSrc: z.string().optional().describe('The page URL the image came from, when `src` was replaced'),
  ...truncatedField,
  ...stored,
});

export const FONT_USAGES = ['heading', 'body', 'ui', 'code'] as const;
export const FONT_SOURCES = [
  'google',
  'adobe',
  'bunny',
  'fontshare',
  'fonts.com',
  'typography.com',
  'self-hosted',
  'system',
] as const;

export const FontEntrySchema = z.object({
  family: z
    .string()
    .describe(
      'The first family the site declares for this text (computed stack, quotes stripped), installed on the worker or not',
    ),
  usage: z.enum(FONT_USAGES),
  usages: z.array(z.enum(FONT_USAGES)).describe('Every usage the family serves, most characters first'),
  stack: z.array(z.string()).describe('The whole declared font-family stack'),
  rendered: z
    .string()
    .describe("The family Chromium painted with on the worker; depends on the worker's installed fonts"),
  count: z.number().int(),
  weights: z.array(z.number()),
  source: z
    .enum(FONT_SOURCES)
    .describe('`self-hosted`, a web-font service, or `system` when no @font-face serves the family'),
  faceUrl: z.string().optional(),
  originalFaceUrl: z.string().optional(),
  ...stored,
});

export const COLOR_ROLES = ['primary', 'background', 'text', 'error', 'success', 'warning', 'neutral'] as const;

export const PaletteColorSchema = z.object({
  hex: z.string().describe('#RRGGBB'),
  rgb: z.string().describe('rgb(r,g,b)'),
  count: z.number().int(),
  role: z.enum(COLOR_ROLES),
});

export const ContrastIssueSchema = z.object({
  fg: z.string(),
  bg: z.string(),
  ratio: z.number(),
  passesAA: z.boolean(),
  passesAAA: z.boolean(),
});

export const IconEntrySchema = z.object({
  hash: z.string(),
  source: z.string().optional().describe('Standalone SVG markup, or `font:<family>:<glyph>` for an icon-font glyph'),
  kind: z.enum(['svg', 'sprite', 'font']),
  size: z.number().describe('Rendered size in CSS px (the larger side)'),
  style: z.enum(['outline', 'filled', 'duotone']),
  count: z.number().int(),
  signedUrl: z.string().optional(),
  ...truncatedField,
  ...stored,
});

const counted = <T extends z.ZodType>(value: T) => z.object({ value, count: z.number().int() });

export const TokensResultSchema = z.object({
  dtcg: z.record(z.string(), z.unknown()).describe('W3C Design Tokens (DTCG) document'),
  spacing: z.array(counted(z.number())),
  radii: z.array(counted(z.string())),
  shadows: z.array(counted(z.string())),
  gradients: z.array(counted(z.string())),
  motionDurationsMs: z.array(z.number()),
  cssVariables: z.array(z.object({ name: z.string(), value: z.string() })),
});

export const LogoResultSchema = z.object({
  found: z.boolean(),
  src: z.string().optional(),
  type: z
    .enum(['img', 'svg', 'background', 'text'])
    .optional()
    .describe('`text` is a wordmark set in type: no image, its text in `alt`'),
  width: z.number().optional(),
  height: z.number().optional(),
  svgSource: z.string().optional(),
  alt: z.string().optional(),
  originalSrc: z.string().optional(),
  ...truncatedField,
  ...stored,
});

/** One extractor threw; the others still ran (lib/design/extract.ts). */
export const ExtractorFailureSchema = z.object({ error: z.string() });

const orFailure = <T extends z.ZodType>(schema: T) => z.union([schema, ExtractorFailureSchema]).optional();

export const DesignResultsSchema = z
  .object({
    images: orFailure(z.object({ images: z.array(ImageEntrySchema) })),
    fonts: orFailure(z.object({ fonts: z.array(FontEntrySchema) })),
    colors: orFailure(z.object({ colors: z.array(PaletteColorSchema), contrastIssues: z.array(ContrastIssueSchema) })),
    icons: orFailure(z.object({ icons: z.array(IconEntrySchema) })),
    tokens: orFailure(z.object({ tokens: TokensResultSchema })),
    logo: orFailure(z.object({ logo: LogoResultSchema })),
  })
  .describe('One key per extractor that ran');

export const DesignResultSchema = z.object({
  url: z.string().describe('The page extracted'),
  extractors: z.array(ExtractorNameSchema).describe('The extractors that ran'),
  durationMs: z.number(),
  results: DesignResultsSchema,
});

export type ImageEntry = z.infer<typeof ImageEntrySchema>;
export type FontEntry = z.infer<typeof FontEntrySchema>;
export type PaletteColor = z.infer<typeof PaletteColorSchema>;
export type ContrastIssue = z.infer<typeof ContrastIssueSchema>;
export type IconEntry = z.infer<typeof IconEntrySchema>;
export type TokensResult = z.infer<typeof TokensResultSchema>;
export type LogoResult = z.infer<typeof LogoResultSchema>;
export type DesignResults = z.infer<typeof DesignResultsSchema>;
export type DesignResult = z.infer<typeof DesignResultSchema>;
