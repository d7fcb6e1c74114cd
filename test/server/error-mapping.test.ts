import 'reflect-metadata';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../src/kernel/errors';
import { validationFailed } from '../../src/kernel/errors';
import { RateLimitedError, type RateLimitState } from '../../src/kernel/rate-limit';
import { restErrorBodyOf } from '../../src/server/chain/errors';
import { formatGraphQLError } from '../../src/server/graphql-errors';
import { subscriptionLimitReached } from '../../src/server/server.errors';

/*
 * One mapping of an error to what GraphQL and REST answer: the GraphQL error Apollo formats, and
 * the REST body of a stored operation made from the same error, never read back from the code and
 * extensions a GraphQL client sees.
 */

const logged: unknown[] = [];
const format = (error: GraphQLError) => formatGraphQLError(error.toJSON(), error, (err) => logged.push(err));
/** An error raised in a resolver, as graphql-js hands it to Apollo. */
const raised = (error: Error) => new GraphQLError(error.message, { path: ['field'], originalError: error });
const state: RateLimitState = { limit: 5, remaining: 0, resetAt: 7 };

describe('an error of ours, over GraphQL and over REST', () => {
  it.each<[string, AppError, object]>([
    [
      'with details, named by the REST parameter',
      validationFailed([{ field: 'first', message: 'must not be less than 1' }]),
      {
        error: 'validation_failed',
        message: 'The request is invalid.',
        details: [{ field: 'limit', message: 'must not be less than 1' }],
      },
    ],
    [
      'with its reason',
      subscriptionLimitReached(3),
      {
        error: 'limit_reached',
        message: expect.stringContaining('At most 3 subscriptions') as string,
        reason: 'subscription_limit_reached',
      },
    ],
    [
      'with its retry time',
      new RateLimitedError(7, state),
      { error: 'rate_limited', message: expect.any(String) as string, retryAfter: 7 },
    ],
  ])('%s', (_case, error, rest) => {
    const formatted = format(raised(error));
    expect(formatted.extensions).toMatchObject({ code: error.code.toUpperCase(), ...error.extra });
    expect(formatted.message).toBe(error.message);
    expect(restErrorBodyOf(formatted, {})).toEqual(rest);
  });

  it('a page over the largest: the REST `limit`, whatever GraphQL said', () => {
    const formatted = format(raised(validationFailed([{ field: 'query', message: 'is too expensive' }])));
    expect(restErrorBodyOf(formatted, { first: 1000 })).toEqual({
      error: 'validation_failed',
      message: 'The request is invalid.',
      details: [{ field: 'limit', message: expect.stringMatching(/^must not be greater than \d+$/) as string }],
    });
  });

  it("a request GraphQL refuses itself: validation_failed in both, in graphql's words", () => {
    const refused = new GraphQLError('Cannot query field "nope" on type "Query".', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const formatted = format(refused);
    expect(formatted.extensions?.code).toBe('VALIDATION_FAILED');
    expect(restErrorBodyOf(formatted, {})).toMatchObject({
      error: 'validation_failed',
      message: 'Cannot query field "nope" on type "Query".',
    });
  });

  it('an internal failure: internal_error in both, logged, its text in neither', () => {
    const formatted = format(raised(new Error('relation "secrets" does not exist')));
    expect(formatted.extensions?.code).toBe('INTERNAL_ERROR');
    expect(restErrorBodyOf(formatted, {})).toEqual({
      error: 'internal_error',
      message: 'Something went wrong on our side. Try again later.',
    });
    expect(logged.at(-1)).toMatchObject({ message: 'relation "secrets" does not exist' });
  });

  it('a code not from our formatter is not taken at its word: internal_error over REST', () => {
    const forged = { message: 'You may not.', extensions: { code: 'FORBIDDEN', reason: 'made_up' } };
    expect(restErrorBodyOf(forged, {})).toEqual({
      error: 'internal_error',
      message: 'Something went wrong on our side. Try again later.',
    });
  });
});
