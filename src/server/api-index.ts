import { API_LINKS, apiPackage } from '../kernel/api-links';
import { DeclaringRouter } from '../kernel/http-router';

/** `GET /`: the service's name and version and its links, for a person or a client that starts at the root. */
export function apiIndex(): DeclaringRouter {
  let body: string | undefined;
  return new DeclaringRouter().get('/', (_req, res) => {
    body ??= JSON.stringify({ ...apiPackage(), links: API_LINKS });
    res.type('json').send(body);
  });
}
