import { createHash } from 'node:crypto';
import express, { type RequestHandler } from 'express';

/*
 * Every answer is `Cache-Control: no-store` unless it says otherwise (server/steps.ts): most depend
 * on the caller. The documents here are the same for everybody and change only with a release (the
 * OpenAPI description, the pages' scripts and stylesheets): a browser or proxy may keep them, asks
 * whether they changed at each use (ETag, If-None-Match) and is answered 304 when they did not.
 */

/** Kept, by anybody, and revalidated before each use. */
export const REVALIDATE = 'public, no-cache';

/** The files of a folder (express.static: an ETag and 304 of its own), marked as documents to revalidate. */
export function publicFiles(
  folder: string,
  options: { index?: string | false; redirect?: boolean } = {},
): RequestHandler {
  return express.static(folder, { ...options, setHeaders: (res) => res.setHeader('Cache-Control', REVALIDATE) });
}

/**
 * A document of the process's lifetime: `make` runs at its first request, not at every start, and
 * its text and ETag are kept. A request whose If-None-Match names the ETag is answered 304.
 */
export function publicDocument(type: string, make: () => string): RequestHandler {
  let made: { text: string; etag: string } | undefined;
  return (req, res) => {
    if (!made) {
      const text = make();
      // Weak: compression sends other bytes for the same document, which a strong ETag would not allow.
      made = { text, etag: `W/"${createHash('sha256').update(text).digest('base64url')}"` };
    }
    res.setHeader('Cache-Control', REVALIDATE);
    res.setHeader('ETag', made.etag);
    if (req.fresh) return void res.status(304).end();
    res.type(type).send(made.text);
  };
}
