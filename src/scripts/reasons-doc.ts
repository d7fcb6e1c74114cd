import { declaredReasons, type ErrorCode, errorStatus } from '../kernel/errors';
// Every declaration loaded, wherever the tables are written from: the areas', and the WebSocket
// front's (declared where it is, which the areas do not load).
import '../areas';
import '../server/server.errors';

const START = '<!-- The tables below are written by `npm run schema:emit` from src/kernel/errors.ts and the *.errors.ts files. -->';
const END = '<!-- End of the written tables. -->';

/** When each code answers, for a reader of the table (a code added to the kernel must say it here). */
const when: Record<ErrorCode, string> = {
  validation_failed: 'a body, query or path parameter is invalid; `details` say which',
  invalid_json: 'the body is not JSON',
  unauthenticated: 'no token, or a bad, expired or ended one; wrong credentials',
  forbidden: 'the role, the ownership or the state of the account does not allow it',
  email_not_verified: 'the operation needs a verified e-mail address',
  guardian_required: 'a learner under 13 has no verified, linked guardian yet',
  consent_required: 'a consent the feature needs is not granted',
  guardian_consent_required: 'the consent must be granted by a linked guardian',
  tier_required: "the caller's tier is below the feature's",
  account_suspended: 'an admin suspended the account',
  feature_disabled: 'a feature flag is off for the caller',
  account_deletion_pending: 'the account is scheduled for erasure: only reading it and canceling are allowed',
  not_found: 'no such resource, or not one the caller may see',
  method_not_allowed: 'the path takes other methods (`Allow` lists them)',
  conflict: 'the state does not allow it (approve twice, a duplicate)',
  limit_reached: 'a limit of the platform (5 learners per guardian, 3 quiz attempts)',
  payload_too_large: 'the body is over the size limit',
  unsupported_media_type: 'a body that is not sent as JSON',
  rate_limited: 'too many requests; `retryAfter` says when to try again',
  quota_exceeded: "a day's quota is used up; `retryAfter` says when it comes back",
  internal_error: 'a failure of ours (logged; nothing of it is shown)',
  upstream_error: 'a service we call (AI, payments, a model) answered with an error',
  upstream_unavailable: 'the database or a service we call cannot be reached',
};

/** The codes with their statuses, and every declared reason by area, as docs/api.md shows them. */
export function errorTables(): string {
  const kinds = Object.entries(errorStatus)
    .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
    .map(([code, status]) => `| ${status} | \`${code}\` | ${when[code as ErrorCode]} |`);
  const reasons = [...declaredReasons]
    .sort(([a, x], [b, y]) => x.area.localeCompare(y.area) || a.localeCompare(b))
    .map(([reason, { area, kind }]) => `| ${area} | \`${reason}\` | ${errorStatus[kind]} \`${kind}\` |`);
  return [START, '', '| HTTP | error | when |', '|---|---|---|', ...kinds, '', '| declared by | reason | HTTP and error |', '|---|---|---|', ...reasons, '', END].join('\n');
}

/** docs/api.md with its tables of codes and reasons as the code declares them now. */
export function withErrorTables(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error('docs/api.md has lost the markers of its error tables.');
  return doc.slice(0, start) + errorTables() + doc.slice(end + END.length);
}
