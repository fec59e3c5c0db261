/** A runtime dependency that stays listed in package.json is one the shipped code actually loads. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/store.js';

function* sources(dir: string): Generator<string> {
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) yield* sources(p);
    else if (/\.(ts|js)$/.test(d.name)) yield fs.readFileSync(p, 'utf8');
  }
}

describe('package.json', () => {
  it('lists only dependencies that src/ imports, requires or resolves', () => {
    const { dependencies } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const code = [...sources(path.join(ROOT, 'src'))].join('\n');
    const unused = Object.keys(dependencies).filter(
      (name) =>
        !new RegExp(`(?:from |require\\(|resolve\\(|import\\()'${name.replace(/[.]/g, '\\.')}(?:/[^']*)?'`).test(code),
    );
    expect(unused).toEqual([]);
  });
});
