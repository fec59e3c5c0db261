/**
 * The layering of src/ (docs/architecture.md, .dependency-cruiser.cjs, scripts/layers.ts): no import
 * cycle between files, each room importing only rooms below it, a render core that reads no file
 * system and speaks no HTTP, and no loop between sibling rooms at any depth — checked over the sources
 * as they are.
 */
import { describe, expect, it } from 'vitest';
import { layerProblems, siblingLoops } from '../../scripts/layers.js';

describe('the layering of src/', () => {
  it('has no import cycle, no room importing one above it, a pure render core and no loop between siblings', () => {
    const { problems, files } = layerProblems();
    expect(files).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the sibling-loop check', () => {
  it('finds a loop between two sub-folders, named by the deepest folder that holds both', () => {
    expect(
      siblingLoops([
        ['src/publish/place/in-order.ts', 'src/publish/render/render-job.ts'],
        ['src/publish/render/render-job.ts', 'src/publish/place/place.ts'],
      ]),
    ).toEqual([
      'sibling loop in src/publish/: place/ → render/ (place/in-order.ts → render/render-job.ts), ' +
        'render/ → place/ (render/render-job.ts → place/place.ts)',
    ]);
  });

  it('finds a loop whose imports start and end deeper in the two rooms, or pass through a file beside them', () => {
    expect(
      siblingLoops([
        ['src/a/x/deep/f.ts', 'src/a/y/g.ts'],
        ['src/a/y/other/h.ts', 'src/a/x/i.ts'],
      ]),
    ).toEqual(['sibling loop in src/a/: x/ → y/ (x/deep/f.ts → y/g.ts), y/ → x/ (y/other/h.ts → x/i.ts)']);
    expect(
      siblingLoops([
        ['src/store/read/reader.ts', 'src/store/db.ts'],
        ['src/store/db.ts', 'src/store/migrations/index.ts'],
        ['src/store/migrations/derived.ts', 'src/store/read/types.ts'],
      ]),
    ).toHaveLength(1);
  });

  it('passes rooms that stand in an order, however their files import up and down the tree', () => {
    expect(
      siblingLoops([
        ['src/publish/build.ts', 'src/publish/render/render-pool.ts'],
        ['src/publish/render/render-pool.ts', 'src/publish/options.ts'],
        ['src/publish/render/render-job.ts', 'src/publish/place/place.ts'],
        ['src/publish/render/render-job.ts', 'src/app/render.ts'],
        ['src/app/render.ts', 'src/api/render.ts'],
        ['src/api/render.ts', 'src/api/route.ts'],
      ]),
    ).toEqual([]);
  });
});
