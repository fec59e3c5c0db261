/**
 * The layering of src/ (docs/architecture.md, .dependency-cruiser.cjs): no import cycle between
 * files or rooms, each room importing only rooms below it, and a render core that reads no file
 * system and speaks no HTTP — checked by dependency-cruiser over the sources as they are.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/store.js';

const CRUISER = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

function cruise(): { violations: Violation[]; modules: number } {
  const out = execFileSync(
    process.execPath,
    [CRUISER, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const result = JSON.parse(out) as { summary: { violations: Violation[]; totalCruised: number } };
  return { violations: result.summary.violations, modules: result.summary.totalCruised };
}

describe('the layering of src/', () => {
  it('has no import cycle, no room importing one above it, and a pure render core', () => {
    const { violations, modules } = cruise();
    expect(modules).toBeGreaterThan(100);
    const described = violations.map((v) =>
      v.cycle
        ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`
        : `${v.rule.name}: ${v.from} → ${v.to}`,
    );
    expect(described).toEqual([]);
  }, 60_000);
});
