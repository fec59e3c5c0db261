/**
 * The path and query parameters of the API, each a zod schema (raw string or absent → typed value,
 * or an issue carrying the exact error text of docs/json-api.md, "Errors") paired with its OpenAPI
 * description. A route declares its parameters from these factories, so validation and
 * documentation cannot drift.
 */
import * as z from 'zod';
import { parseYmd } from '../util/time.js';
import { SUMMARY_SECTIONS } from '../store/records.js';

export type JsonSchema = Record<string, unknown>;

export interface Field<T> {
  schema: z.ZodType<T, string | undefined>;
  description: string;
  /** JSON Schema of the raw parameter, for OpenAPI. */
  doc: JsonSchema;
  required?: boolean;
  /** Every value the parameter can take, spelled canonically, when that is a finite set (enums, booleans). */
  values?: readonly string[];
  /** The value when the parameter is not given. */
  fallback?: T;
  /** The largest value; larger ones are clamped to it. */
  max?: number;
}

const INVALID = Symbol('invalid');

function field<T>(
  message: string,
  parse: (raw: string | undefined) => T | typeof INVALID,
  description: string,
  doc: JsonSchema,
  required = false,
): Field<T> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = parse(raw);
      if (value === INVALID) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value;
    });
  return { schema: schema as unknown as z.ZodType<T, string | undefined>, description, doc, required };
}

export const SLUG = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const ID = /^[A-Za-z0-9_-]{1,128}$/;
export const MAX_PAGE = 10_000;
export const DEFAULT_LIMIT = 100;

const idDoc = { type: 'string', pattern: ID.source };

/** `ENG.1` is served as `eng.1`. */
export const leagueParam = (): Field<string> =>
  field(
    'Invalid league slug',
    (raw) => {
      const slug = raw?.toLowerCase();
      return slug !== undefined && SLUG.test(slug) ? slug : INVALID;
    },
    'League slug, `<country>.<division>` (case-insensitive)',
    { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', examples: ['eng.1'] },
    true,
  );

export const idParam = (message: string, description: string): Field<string> =>
  field(message, (raw) => (raw !== undefined && ID.test(raw) ? raw : INVALID), description, idDoc, true);

export const eventIdParam = () => idParam('Invalid or missing event ID', 'Match (event) id');
export const clubIdParam = () => idParam('Invalid club ID', 'Club id');

export const dateQuery = (name: string, description: string): Field<string | null> =>
  field(
    `${name} must be a valid YYYYMMDD date`,
    (raw) => (raw === undefined ? null : parseYmd(raw) ? raw : INVALID),
    description,
    {
      type: 'string',
      pattern: '^\\d{8}$',
      examples: ['20260321'],
    },
  );

export function enumQuery<const V extends readonly string[]>(
  name: string,
  values: V,
  fallback: V[number],
  description: string,
): Field<V[number]> {
  const message = `${name} must be ${values.slice(0, -1).join(', ')}, or ${values[values.length - 1]}`;
  const f = field(
    message,
    (raw) => {
      if (raw === undefined) return fallback;
      const v = raw.toLowerCase();
      return (values as readonly string[]).includes(v) ? (v as V[number]) : INVALID;
    },
    `${description} (case-insensitive)`,
    { type: 'string', enum: [...values], default: fallback },
  );
  return { ...f, values, fallback };
}

export const boolQuery = (name: string, fallback: boolean, description: string): Field<boolean> => ({
  ...field(
    `${name} must be true or false`,
    (raw) => (raw === undefined ? fallback : raw === 'true' ? true : raw === 'false' ? false : INVALID),
    description,
    {
      type: 'string',
      enum: ['true', 'false'],
      default: String(fallback),
    },
  ),
  values: ['false', 'true'],
  fallback,
});

function positive(name: string, max: number, fallback: number, description: string): Field<number> {
  const f = field(
    `${name} must be a positive integer`,
    (raw) => {
      if (raw === undefined) return fallback;
      if (!/^\d+$/.test(raw)) return INVALID;
      const n = Number(raw);
      return n >= 1 ? Math.min(n, max) : INVALID;
    },
    `${description}; values above ${max} are clamped to ${max}`,
    { type: 'string', pattern: '^\\d+$', default: String(fallback) },
  );
  return { ...f, fallback, max };
}

export const pageQuery = () => positive('page', MAX_PAGE, 1, '1-based page number');
export const limitQuery = (max: number) => positive('limit', max, DEFAULT_LIMIT, 'Page size');

export const seasonQuery = (): Field<number | null> =>
  field(
    'season must be a four-digit year',
    (raw) => (raw === undefined ? null : /^\d{4}$/.test(raw) ? Number(raw) : INVALID),
    'Season start year (default: the current season if stored, else the latest stored)',
    {
      type: 'string',
      pattern: '^\\d{4}$',
    },
  );

/** `/changes?since=`: a snapshot id; null = the most recent snapshots. */
export const sinceQuery = (): Field<number | null> =>
  field(
    'since must be a snapshot id',
    (raw) => (raw === undefined ? null : /^\d{1,15}$/.test(raw) ? Number(raw) : INVALID),
    'List the snapshots after this one (default: the last 20)',
    { type: 'string', pattern: '^\\d+$' },
  );

export const SUMMARY_FIELDS = [...SUMMARY_SECTIONS, 'meta'] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];

/** Comma-separated section names, trimmed and de-duplicated; empty items are skipped. Null = all. */
export const fieldsQuery = (): Field<ReadonlySet<SummaryField> | null> =>
  field(
    `fields must be a comma-separated list of: ${SUMMARY_FIELDS.join(', ')}`,
    (raw) => {
      if (raw === undefined) return null;
      const names = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (!names.every((n): n is SummaryField => (SUMMARY_FIELDS as readonly string[]).includes(n))) return INVALID;
      return names.length ? new Set(names) : null;
    },
    `Comma-separated summary sections to return, any of: ${SUMMARY_FIELDS.join(', ')}`,
    { type: 'string' },
  );

/** `/summary?event=ID`: the event id is a query parameter there, validated like the path form. */
export const eventQuery = (): Field<string> =>
  field(
    'Invalid or missing event ID',
    (raw) => (raw !== undefined && ID.test(raw) ? raw : INVALID),
    'Match (event) id',
    idDoc,
    true,
  );
