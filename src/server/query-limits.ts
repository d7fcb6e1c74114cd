import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import type { Config } from '../config';

/** graphql-armor throws by default, which servers answer as an internal error; report instead. */
const reported = {
  exposeLimits: true,
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** The same depth and alias limits for GraphQL over HTTP and over WebSocket; the cost (query-cost.ts) needs the variables, so each path adds it where it knows them. */
export function queryLimitRules(config: Config): ValidationRule[] {
  // A fragment's fields count at the depth where it is spread (the spread itself is no level): the
  // REST documents share their selections as fragments and keep the depth they had.
  return [maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, flattenFragments: true, ...reported }), maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, ...reported })] as ValidationRule[];
}

export const parseOptions = (config: Config) => ({ maxTokens: config.GRAPHQL_MAX_TOKENS });
