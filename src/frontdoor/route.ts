/**
 * The front door's route: `/`, an HTML page of what the store holds, rendered by a pure function of
 * the store and the route table (which the render core hands it: the table holds this route too).
 */
import { defineRoute } from '../api/route.js';
import * as pre from '../api/prerender.js';
import { topic } from '../api/reads.js';
import { FrontDoorPage } from '../api/responses.js';
import { frontDoorData } from './data.js';
import { frontDoorPage } from './page.js';
import { FRONT_DOOR_FILE, HTML_TYPE } from './paths.js';

export const FRONT_DOOR_ROUTE = defineRoute({
  name: 'front-door',
  path: '/',
  summary: 'The front door: an HTML page with what the store holds, how fresh it is, and this reference',
  tag: 'Service',
  params: {},
  query: {},
  cache: 'list',
  contentType: HTML_TYPE,
  staticFile: FRONT_DOOR_FILE,
  response: FrontDoorPage,
  errors: [],
  handle: ({ store, routes }) => ({ body: frontDoorPage(frontDoorData(store, routes)) }),
  prerender: pre.once,
  reads: () => [topic.any],
  reach: { level: 'league', hot: () => true },
});
