import type { RequestAuth } from '../kernel/tokens';
import type { RateLimitState } from '../kernel/rate-limit';

declare global {
  namespace Express {
    interface Request {
      /** The request id (X-Request-Id): the client's if well formed, else minted. */
      id: string;
      /** What the bearer token says, read once per request. */
      auth: RequestAuth;
      /** Shows a limit this request was counted in on its answer (the tightest one shown so far stays). */
      showLimit(state: RateLimitState): void;
      /** The template of the route served before express that answers it (its metrics' label). */
      directRoute?: string;
    }
  }
}
