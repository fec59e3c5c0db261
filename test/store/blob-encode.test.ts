import { describe, expect, it } from 'vitest';
import { packSpans, sectionsJson, streamOf, streamOfTexts } from '../../src/store/blob.js';
import { contentHash } from '../../src/util/hash.js';

const sections: Array<[string, unknown]> = [
  ['header', { id: '1', name: 'Zürich – Łódź ’a’ 😀' }],
  ['rosters', []],
  ['commentary', [{ text: 'plain' }, { text: 'naïve "quoted" \\ back' }]],
  ['empty', null],
];

describe('blob encoding in one pass', () => {
  it('sectionsJson gives JSON.stringify bytes and packSpans spans, ASCII or not', () => {
    for (const set of [sections, sections.map(([k]) => [k, 1] as [string, unknown]), []]) {
      const object = Object.fromEntries(set);
      const expected = Buffer.from(JSON.stringify(object), 'utf8');
      const got = sectionsJson(set.map(([k, v]) => [k, JSON.stringify(v)]));
      expect(got.bytes.equals(expected)).toBe(true);
      expect(got.spans).toBe(packSpans(expected));
    }
  });

  it('streamOfTexts gives streamOf bytes and ends, and contentHash of the texts', () => {
    for (const texts of [['{"a":1}', '{"b":"Łódź"}', '{"c":"😀"}'], ['{"a":1}'], ['{"x":"plain"}', '{"y":2}'], []]) {
      const expected = streamOf(texts.map((t) => Buffer.from(t, 'utf8')));
      const got = streamOfTexts('1', texts);
      expect(got.bytes.equals(expected.bytes)).toBe(true);
      expect(got.ends.equals(expected.ends)).toBe(true);
      expect(got.hash).toBe(contentHash('1', ...texts));
    }
  });
});
