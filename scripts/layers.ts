/**
 * The layering check of src/ (docs/architecture.md, "The folders of src/"): `npm run lint:deps` runs
 * it, and test/meta/layers.test.ts holds the tree to it. It has two parts:
 *
 * - the rules of .dependency-cruiser.cjs, which dependency-cruiser applies: no import cycle between
 *   files, each room of src/ importing only rooms on floors below its own, a pure render core;
 * - what no rule of dependency-cruiser can say: no loop between sibling rooms, at any depth. The
 *   entries of one folder (its sub-folders and its files) stand beside each other, and an import counts
 *   as an arrow between the two entries of the deepest folder that holds both files:
 *   src/publish/render/render-job.ts → src/publish/place/place.ts is render/ → place/ in src/publish,
 *   src/store/read/reader.ts → src/store/db.ts is read/ → db.ts in src/store. Those arrows must not
 *   close a loop, type-only imports included. The floors order the top-level rooms by hand; below
 *   them the order is whatever the imports make it, as long as it is one.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CRUISER = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** One import between two files, each a path from the project's root. */
export type Import = readonly [from: string, to: string];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

interface Cruised {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
  summary: { violations: Violation[]; totalCruised: number };
}

/** src/ as dependency-cruiser reads it with the project's rules (it exits non-zero when they fail: that is read from its output). */
function cruise(): Cruised {
  const run = spawnSync(
    process.execPath,
    [CRUISER, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (!run.stdout) throw new Error(`dependency-cruiser failed: ${run.stderr || run.error}`);
  return JSON.parse(run.stdout) as Cruised;
}

const describeViolation = (v: Violation): string =>
  v.cycle
    ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`
    : `${v.rule.name}: ${v.from} → ${v.to}`;

/** The entry of `parts`' folder at depth `i`: a sub-folder (with its slash) or the file itself. */
const entryAt = (parts: string[], i: number) => (i < parts.length - 1 ? `${parts[i]}/` : parts[i]!);

/** Where an import stands: the deepest folder that holds both files, and the entries of it that hold each. */
function arrowOf([from, to]: Import): { folder: string; from: string; to: string } | null {
  const a = from.split('/');
  const b = to.split('/');
  let i = 0;
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++;
  const [ea, eb] = [entryAt(a, i), entryAt(b, i)];
  return ea === eb ? null : { folder: a.slice(0, i).join('/'), from: ea, to: eb };
}

/**
 * Every loop between sibling rooms that the imports close, one line each: the folder, then each arrow
 * of the loop with an import that draws it (paths from that folder). Empty when the rooms of every
 * folder stand in an order.
 */
export function siblingLoops(imports: Iterable<Import>): string[] {
  // folder → entry → entry it imports → the imports that draw the arrow.
  const folders = new Map<string, Map<string, Map<string, Import[]>>>();
  for (const imp of imports) {
    const arrow = arrowOf(imp);
    if (!arrow) continue;
    const arrows = folders.get(arrow.folder) ?? new Map<string, Map<string, Import[]>>();
    const out = arrows.get(arrow.from) ?? new Map<string, Import[]>();
    out.set(arrow.to, [...(out.get(arrow.to) ?? []), imp]);
    arrows.set(arrow.from, out);
    folders.set(arrow.folder, arrows);
  }
  const loops: string[] = [];
  for (const [folder, arrows] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    const within = (p: string) => p.slice(folder.length + 1);
    for (const loop of stronglyConnected(arrows)) {
      const drawn = loop.flatMap((from) =>
        loop
          .filter((to) => arrows.get(from)?.has(to))
          .map((to) => {
            const [f, t] = arrows.get(from)!.get(to)![0]!;
            return `${from} → ${to} (${within(f)} → ${within(t)})`;
          }),
      );
      loops.push(`sibling loop in ${folder}/: ${drawn.join(', ')}`);
    }
  }
  return loops;
}

/** The rooms of one folder that reach each other both ways, in groups of two or more (Tarjan's algorithm). */
function stronglyConnected(arrows: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of arrows.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...arrows.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** What breaks the layering of src/ today, one line each (none when it holds), and how many files were read. */
export function layerProblems(): { problems: string[]; files: number } {
  const { modules, summary } = cruise();
  const imports = modules.flatMap((m) =>
    m.dependencies.filter((d) => d.resolved.startsWith('src/')).map((d): Import => [m.source, d.resolved]),
  );
  return {
    problems: [...summary.violations.map(describeViolation), ...siblingLoops(imports)],
    files: summary.totalCruised,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { problems, files } = layerProblems();
  for (const p of problems) console.error(`✘ ${p}`);
  console.log(`layers: ${files} files, ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = problems.length ? 1 : 0;
}
