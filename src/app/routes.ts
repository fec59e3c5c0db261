/**
 * THE route table of the service: the API's routes (api/routes.ts) and the front door's
 * (frontdoor/route.ts). Everything that resolves, renders, pre-renders or routes a request — the
 * server, the build plan, the CDN rules and headers, the edge router, the Netlify Function, the
 * OpenAPI document — takes it from here.
 */
import type { AnyRoute, RouteTable } from '../api/route.js';
import { API_ROUTES } from '../api/routes.js';
import { FRONT_DOOR_ROUTE } from '../frontdoor/route.js';

export const ROUTES: readonly AnyRoute[] = [...API_ROUTES, FRONT_DOOR_ROUTE];

export const ROUTES_BY_NAME: RouteTable = new Map(ROUTES.map((r) => [r.name, r]));
