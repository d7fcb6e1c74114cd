import { allow, and, rule } from 'graphql-shield';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { Role } from '../auth';
import type { Context } from '../kernel/context';
import { perProcess } from '../kernel/deps';
import { RateLimitedError } from '../kernel/rate-limit';
import { featureEnabled } from '../features';
import { hasRole } from '../permissions/rules';

const isAdmin = hasRole(Role.admin);

/** RATE_LIMIT_CONTACT messages an hour per IP, kept in memory like the other limits. */
const contactLimiter = perProcess((deps) => new RateLimiterMemory({ keyPrefix: 'contact', points: deps.config.RATE_LIMIT_CONTACT, duration: 3600 }));

export const contactThrottled = rule('contactThrottled', { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
  const limiter = contactLimiter(ctx.uow.deps);
  try {
    await limiter.consume(`ip:${ctx.ip}`);
    return true;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    return new RateLimitedError(retryAfter, { limit: limiter.points, remaining: 0, resetAt: Math.ceil((Date.now() + rejection.msBeforeNext) / 1000) });
  }
});

export const contactRules = {
  Query: { contactMessages: isAdmin },
  Mutation: { sendContactMessage: and(featureEnabled('contact_form', true), contactThrottled), resolveContactMessage: isAdmin },
  ContactReceipt: allow,
  ContactMessage: allow,
  ContactMessageConnection: allow,
  ContactMessageEdge: allow,
};
