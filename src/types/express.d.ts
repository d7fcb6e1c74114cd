import type { RequestAuth } from '../kernel/tokens';
import type { Bucket } from '../kernel/rate-limit';

declare global {
  namespace Express {
    interface Request {
      /** The request id (X-Request-Id): the client's if well formed, else minted. */
      id: string;
      /** What the bearer token says, read once per request. */
      auth: RequestAuth;
      /** Rate-limit buckets this request was already counted in by the HTTP layer. */
      countedBuckets: Set<Bucket>;
      /** The template of the route served before express that answers it (its metrics' label). */
      directRoute?: string;
    }
  }
}
