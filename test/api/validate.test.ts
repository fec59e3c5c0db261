/** Parameter validation gives every raw value its schema's answer, however often the value comes back. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventIdParam, fieldsQuery, limitQuery, pageQuery } from '../../src/api/fields.js';
import { ApiError, validate } from '../../src/api/route.js';

const fields = { page: pageQuery(), limit: limitQuery(200), fields: fieldsQuery() };
type Values = { page: number; limit: number; fields: ReadonlySet<string> | null };

/** The answer of the schemas themselves, one by one, in declaration order. */
function direct(raw: Record<string, string | undefined>): Values | string {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const parsed = field.schema.safeParse(raw[name]);
    if (!parsed.success) return parsed.error.issues[0]!.message;
    out[name] = parsed.data;
  }
  return out as Values;
}

function validated(raw: Record<string, string | undefined>): Values | string {
  try {
    return validate(fields, (name) => raw[name]) as Values;
  } catch (err) {
    if (err instanceof ApiError) return err.message;
    throw err;
  }
}

const rawValue = fc.option(
  fc.oneof(
    fc.constantFrom('1', '2', '100', '300', '0', '-1', 'x', '', 'meta', 'header,meta', 'rosters, meta', 'bogus'),
    fc.string({ maxLength: 200 }),
  ),
  { nil: undefined },
);

describe('validate', () => {
  it('gives each raw value what its schema gives, the first time and every time after', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ page: rawValue, limit: rawValue, fields: rawValue }), { minLength: 1, maxLength: 30 }),
        (requests) => {
          for (const raw of [...requests, ...requests]) expect(validated(raw)).toEqual(direct(raw));
        },
      ),
    );
  });

  it('makes a new fields set for each request, so no handler shares one', () => {
    const first = validated({ fields: 'header,meta' }) as Values;
    const second = validated({ fields: 'header,meta' }) as Values;
    expect(second.fields).toEqual(new Set(['header', 'meta']));
    expect(second.fields).not.toBe(first.fields);
  });

  it('answers past the values it remembers as the schema does', () => {
    const id = { eventId: eventIdParam() };
    for (let i = 0; i < 2_000; i++) {
      const raw = i % 7 === 0 ? `bad id ${i}` : `m${i}`;
      const run = () => validate(id, () => raw);
      if (i % 7 === 0) expect(run).toThrow('Invalid or missing event ID');
      else expect(run()).toEqual({ eventId: raw });
    }
    expect(validate(id, () => 'm1')).toEqual({ eventId: 'm1' });
    expect(() => validate(id, () => 'x'.repeat(129))).toThrow('Invalid or missing event ID');
  });
});
