import { type RequestHandler, Router } from 'express';

/** What a router serves: a method (`*` for every method) and its paths, whole or as a prefix. */
export interface DeclaredRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | '*';
  paths: string[];
  /** Mounted with `use`: the paths are prefixes, any method passes. */
  prefix: boolean;
}

/** A route's handler: its path's named parameters are strings. */
type RouteHandler = RequestHandler<Record<string, string>>;

/**
 * Express's router with what is mounted on it kept as data: the server answers 405 with the
 * methods a path takes, and decides which rows of the REST table an area's route sees first, from
 * these declarations instead of reading express's internals.
 */
export class DeclaringRouter {
  readonly router: Router = Router();
  readonly declared: DeclaredRoute[] = [];

  get(paths: string | string[], ...handlers: RouteHandler[]): this {
    return this.route('GET', paths, handlers);
  }

  post(paths: string | string[], ...handlers: RouteHandler[]): this {
    return this.route('POST', paths, handlers);
  }

  put(paths: string | string[], ...handlers: RouteHandler[]): this {
    return this.route('PUT', paths, handlers);
  }

  delete(paths: string | string[], ...handlers: RouteHandler[]): this {
    return this.route('DELETE', paths, handlers);
  }

  /** Middleware for every method under a path (static files, a handler of its own methods). */
  use(path: string, ...handlers: RequestHandler[]): this {
    this.declared.push({ method: '*', paths: [path], prefix: true });
    this.router.use(path, ...handlers);
    return this;
  }

  /** Another router's routes, after this one's so far. */
  mount(other: DeclaringRouter): this {
    this.declared.push(...other.declared);
    this.router.use(other.router);
    return this;
  }

  private route(method: DeclaredRoute['method'], paths: string | string[], handlers: RouteHandler[]): this {
    this.declared.push({ method, paths: [paths].flat(), prefix: false });
    this.router[method.toLowerCase() as 'get'](paths, ...handlers);
    return this;
  }
}
