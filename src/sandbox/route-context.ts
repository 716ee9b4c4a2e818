import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxCore } from './core.js';

/** What a route handler gets: the state, the parsed JSON body (POST only), the raw query and the path id. */
export interface RouteContext {
  core: SandboxCore;
  body: unknown;
  /** Exactly as received, with its '?', or ''. */
  query: string;
  /** The {id} of /v1/energy/orders/{id}. */
  id: string | undefined;
  nowMs: number;
  headers: IncomingHttpHeaders;
}
