import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { jsonBodyRequired } from './errors';

/** Whether a Content-Type is JSON, as express's JSON parser reads it (parameters such as charset aside). */
export const isJsonType = (type: string | undefined) =>
  type !== undefined && /^\s*application\/json\s*(;|$)/i.test(type);

/**
 * The step before a JSON body is parsed (REST, /graphql, the areas' JSON routes): a body sent with
 * another content type (`text/plain`, a form, none at all) is 415 `unsupported_media_type`
 * (docs/errors.md), where express's parser left it unread and the operation then failed in
 * GraphQL's words. A request without a body (a POST that only names its path) passes.
 */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  if (!hasBody(req) || isJsonType(req.headers['content-type'])) return next();
  next(jsonBodyRequired());
};

/** A body of at least one byte: chunked, or a Content-Length above zero. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
