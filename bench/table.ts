/**
 * A plain-text table for the benchmarks' output: columns two spaces apart, the first `left` of them
 * left-aligned, the rest right-aligned (figures). A short row leaves its last cells empty.
 */
export function textTable(head: readonly string[], rows: readonly (readonly string[])[], left = 0): string {
  const cell = (r: readonly string[], i: number) => r[i] ?? '';
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => cell(r, i).length)));
  const line = (r: readonly string[]) =>
    head
      .map((_, i) => (i < left ? cell(r, i).padEnd(widths[i]!) : cell(r, i).padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [head, ...rows].map(line).join('\n');
}
