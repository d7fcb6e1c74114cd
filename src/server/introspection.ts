import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  validate,
  type ValidationRule,
} from 'graphql';
import type { Context } from '../kernel/context';
import { Role } from '../kernel/domain';
import type { RequestAuth } from '../kernel/tokens';

/**
 * In production the schema is hidden from clients (no introspection), except from admins: the
 * explorer at /graphql is theirs there. Outside production everyone may introspect.
 */
function introspectionRules(hideSchema: boolean, auth: Pick<RequestAuth, 'roles'>): ValidationRule[] {
  return hideSchema && !auth.roles?.includes(Role.admin) ? [NoSchemaIntrospectionCustomRule] : [];
}

/** As a plugin: Apollo caches validation per document, where the caller cannot be seen. */
export function introspectionPlugin(hideSchema: boolean): ApolloServerPlugin<Context> {
  // What the rule answers for a document, once per document (Apollo hands the same parsed document
  // to every request of one text): only whether it applies depends on the caller.
  const checked = new WeakMap<DocumentNode, GraphQLError | null>();
  const firstError = (schema: GraphQLSchema, document: DocumentNode, rules: ValidationRule[]) => {
    if (!rules.length) return null;
    let error = checked.get(document);
    if (error === undefined) checked.set(document, (error = introspectionErrors(schema, document, rules)[0] ?? null));
    return error;
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, schema, contextValue }) {
          const error = firstError(schema, document, introspectionRules(hideSchema, contextValue.auth));
          if (error)
            throw new GraphQLError(error.message, {
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400, headers: new HeaderMap() } },
            });
        },
      };
    },
  };
}

function introspectionErrors(schema: GraphQLSchema, document: DocumentNode, rules: ValidationRule[]) {
  return rules.length ? validate(schema, document, rules) : [];
}
