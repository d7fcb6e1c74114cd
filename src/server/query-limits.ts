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

/** The depth and alias limits of GraphQL (over HTTP and the WebSocket, both run by Apollo); the cost (query-cost.ts) needs the variables, so a plugin checks it. */
export function queryLimitRules(config: Config): ValidationRule[] {
  // A fragment's fields count at the depth where it is spread (the spread itself is no level): the
  // REST documents share their selections as fragments and keep the depth they had.
  return [
    maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, flattenFragments: true, ...reported }),
    maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, ...reported }),
  ] as ValidationRule[];
}

export const parseOptions = (config: Config) => ({ maxTokens: config.GRAPHQL_MAX_TOKENS });
