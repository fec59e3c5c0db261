/**
 * The layering of src/ (docs/architecture.md), checked by `npm run lint:deps` and by
 * test/meta/layers.test.ts (both run scripts/layers.ts): no import cycles between files (type-only
 * imports included), and each room imports only rooms on its own floor or below. A room may not
 * import one beside it on the same floor unless the floor lists it as allowed. Inside a room the
 * floors are not listed: scripts/layers.ts checks that no sibling folders or files at any depth import
 * each other in a loop, which no rule of this file can say.
 */

/** The floors, lowest first: each entry is a room (a folder of src/). */
const FLOORS = [
  ['util', 'reference', 'types'],
  ['store', 'purge'],
  ['espn', 'api'],
  ['sync', 'frontdoor'],
  ['app'],
  ['release'],
  ['server'],
  ['publish'],
  ['netlify', 'nginx'],
  ['check'],
  ['live'],
  ['cli'],
];

const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor])));
const ROOMS = [...floorOf.keys()];
const above = (room) => ROOMS.filter((other) => floorOf.get(other) > floorOf.get(room));
const beside = (room) => ROOMS.filter((other) => other !== room && floorOf.get(other) === floorOf.get(room));

/** Rooms on one floor that may import each other one way: [from, to]. */
const SIDEWAYS = [['sync', 'espn']];

const layerRules = ROOMS.flatMap((room) => {
  const sideways = beside(room).filter((other) => !SIDEWAYS.some(([f, t]) => f === room && t === other));
  const forbidden = [...above(room), ...sideways];
  if (!forbidden.length) return [];
  return [
    {
      name: `layers-${room}`,
      comment: `src/${room}/ imports only rooms below it (docs/architecture.md)`,
      severity: 'error',
      from: { path: `^src/${room}/` },
      to: { path: `^src/(${forbidden.join('|')})/` },
    },
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles between files, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'render-core-is-pure',
      comment: 'The render core (api/) reads no file system and speaks no HTTP',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^(fs|node:fs|http|node:http|https|node:https|net|node:net)$', dependencyTypes: ['core'] },
    },
    {
      name: 'unknown-room',
      comment: 'Every folder of src/ is a room on a floor of this file',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: `^src/(?!(${ROOMS.join('|')})/)[^/]+/` },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
