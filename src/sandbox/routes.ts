/** The route table: which handler answers which method and path, and what it needs first. */
import { getBalance, getOptions, getTime, postQuote } from './account-handlers.js';
import { getOrder, listOrders, postOrder } from './order-handlers.js';
import type { Reply } from './reply.js';
import type { RouteContext } from './route-context.js';
import {
  getAccount,
  getAccountResource,
  getChainParameters,
  getNowBlock,
  triggerConstantContract,
} from './tron-handlers.js';

export interface Route {
  method: 'GET' | 'POST';
  /** false only for GET /v1/time. */
  auth: boolean;
  /** Needs a JSON body (Content-Type check, parse). */
  json: boolean;
  handler: (context: RouteContext) => Reply;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; id: string | undefined }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'unknown' };

const get = (handler: Route['handler'], auth = true): Route => ({ method: 'GET', auth, json: false, handler });
const post = (handler: Route['handler']): Route => ({ method: 'POST', auth: true, json: true, handler });
/** The TRON node's calls: unsigned, like a public node's. */
const tronPost = (handler: Route['handler']): Route => ({ method: 'POST', auth: false, json: true, handler });

const STATIC_ROUTES = new Map<string, Route[]>([
  ['/v1/time', [get(getTime, false)]],
  ['/v1/balance', [get(getBalance)]],
  ['/v1/energy/options', [get(getOptions)]],
  ['/v1/energy/quotes', [post(postQuote)]],
  ['/v1/energy/orders', [get(listOrders), post(postOrder)]],
  ['/wallet/getaccountresource', [tronPost(getAccountResource)]],
  ['/wallet/getaccount', [tronPost(getAccount)]],
  ['/wallet/getnowblock', [tronPost(getNowBlock)]],
  ['/wallet/getchainparameters', [tronPost(getChainParameters)]],
  ['/wallet/triggerconstantcontract', [tronPost(triggerConstantContract)]],
]);
const ORDER_ROUTES = [get(getOrder)];
const ORDER_PATH = /^\/v1\/energy\/orders\/([^/]+)$/;

export function matchRoute(method: string, path: string): RouteMatch {
  let routes = STATIC_ROUTES.get(path);
  let id: string | undefined;
  if (routes === undefined) {
    const match = ORDER_PATH.exec(path);
    if (match === null) return { kind: 'unknown' };
    routes = ORDER_ROUTES;
    id = match[1];
  }
  const route = routes.find((candidate) => candidate.method === method);
  return route === undefined
    ? { kind: 'wrong-method', allowed: routes.map((r) => r.method) }
    : { kind: 'found', route, id };
}
