import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import proxyaddr from 'proxy-addr';
import type { JsonRoute } from '../kernel/area';
import type { Deps } from '../kernel/deps';
import { countRequest } from '../kernel/rate-limit';
import { authenticateHeader } from '../kernel/tokens';
import { answerError, corsOf, jsonBodyOf, requestContext, trackRequest } from './http';

/** What the steps below write on the request, as express's middleware does. */
type DirectRequest = IncomingMessage & Pick<Request, 'id' | 'auth' | 'countedBuckets' | 'body'> & { ip: string };

/**
 * Serves the areas' JSON routes (the AI tutor's chat) before express: a request whose method and URL
 * name one exactly goes through the same steps, in the same order, as it would in the express
 * pipeline (request id and log line, CORS, the token, the rate limits, the JSON body), with the same
 * functions, and is answered by the route; every other request goes to `app`, which also serves
 * these routes when spelled otherwise. What express added to each message (its router's layers,
 * its request and response set-up, `res.json`) was a third of the AI proxy's CPU time.
 */
export function withJsonRoutes(deps: Deps, routes: JsonRoute[], app: Express): RequestListener {
  const byPath = new Map(routes.map((route) => [route.path, route]));
  if (!byPath.size) return app;
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const cors = step(corsOf(deps.config));
  const parseJson = step(jsonBodyOf(deps.config));
  return (req, res) => {
    const route = req.method === 'POST' ? byPath.get(req.url ?? '') : undefined;
    if (!route) return app(req, res);
    const request = req as DirectRequest;
    request.id = trackRequest(deps.log, req, res, route.path);
    void (async () => {
      await cors(req, res);
      request.ip = proxyaddr(req, trust);
      request.auth = authenticateHeader(deps.config, req.headers.authorization);
      await countRequest(deps.limits, request, route.path, res);
      await parseJson(req, res);
      await route.handle(requestContext(deps, request as unknown as Request), request.body, req, res);
    })().catch((error: unknown) => answerError(deps.log, request.id, res, error));
  };
}

/** An express middleware as a step that resolves when it calls `next()` and rejects with what it passes. */
function step(middleware: RequestHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) =>
    new Promise((resolve, reject) => {
      const next: NextFunction = (error?: unknown) => (error ? reject(error) : resolve());
      void middleware(req as Request, res as Response, next);
    });
}
