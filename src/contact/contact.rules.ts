import { allow, and } from 'graphql-shield';
import { Role } from '../auth';
import type { Context } from '../kernel/context';
import { featureEnabled } from '../features';
import { hasRole, throttled } from '../permissions/rules';

const isAdmin = hasRole(Role.admin);

/** RATE_LIMIT_CONTACT messages an hour per IP (the bucket `contact` of the area, in the shared store). */
export const CONTACT_BUCKET = 'contact';
export const contactThrottled = throttled(CONTACT_BUCKET, (ctx: Context) => `ip:${ctx.ip}`);

export const contactRules = {
  Query: { contactMessages: isAdmin },
  Mutation: {
    sendContactMessage: and(featureEnabled('contact_form', true), contactThrottled),
    resolveContactMessage: isAdmin,
  },
  ContactReceipt: allow,
  ContactMessage: allow,
  ContactMessageConnection: allow,
  ContactMessageEdge: allow,
};
