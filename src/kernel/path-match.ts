import { match } from 'path-to-regexp';

/** Whether a declared path takes a request path, as express matches it: any case, a trailing slash or not, a prefix at a segment's end. */
export function pathMatcher(path: string, prefix: boolean): (requestPath: string) => boolean {
  const matches = match(path, { sensitive: false, end: !prefix, trailing: true, decode: false });
  return (requestPath) => matches(requestPath) !== false;
}
