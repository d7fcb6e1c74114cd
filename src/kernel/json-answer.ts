import type { ServerResponse } from 'node:http';

/**
 * What express's `res.status(status).json(body)` sends, on node's own response (no ETag: nothing
 * here is cached). In the kernel because REST, the composition root's refusals and the areas' own
 * JSON routes (the AI chat) all answer this way.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Named, as express does: compression (which drops it when it compresses) writes the head before the body.
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
