import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import {
  type ArgumentNode,
  type DocumentNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  KnownArgumentNamesRule,
  Kind,
  ProvidedRequiredArgumentsRule,
  validate,
  type ValueNode,
  ValuesOfCorrectTypeRule,
  visit,
} from 'graphql';
import type { Context } from '../kernel/context';
import type { FieldError } from '../kernel/errors';
import { BAD_TEXT, badVariable, reasonOf } from '../kernel/validation';
import type { RuleMap } from '../permissions';
import { callerRefusal } from './caller-first';
import { graphqlRefusal } from './chain/errors';
import { countOperation } from './chain/limits';
import { nullsAsDefaults } from './null-defaults';

/*
 * One check of every string a request carries, before any resolver runs: a NUL byte (PostgreSQL
 * refuses it in text, so it surfaced as a 500) or a lone UTF-16 surrogate (no valid text has one;
 * UTF-8 cannot say it, so it changes on its way to the database, mail or a hash) is bad input.
 * Keys are checked as well as values. It covers GraphQL over HTTP, the REST table and the WebSocket,
 * which all run through Apollo.
 */
/** The first bad string literal written in the document itself, named by its argument. */
function badLiteral(document: DocumentNode): FieldError | null {
  let found: FieldError | null = null;
  visit(document, {
    Argument(node: ArgumentNode) {
      found ??= badLiteralValue(node.value, [node.name.value]);
      return found ? false : undefined;
    },
  });
  return found;
}

function badLiteralValue(node: ValueNode, path: string[]): FieldError | null {
  if (node.kind === Kind.STRING)
    return BAD_TEXT.test(node.value) ? { field: path.join('.'), message: reasonOf(node.value) } : null;
  if (node.kind === Kind.LIST) {
    for (const [i, item] of node.values.entries()) {
      const found = badLiteralValue(item, [...path, String(i)]);
      if (found) return found;
    }
  }
  if (node.kind === Kind.OBJECT) {
    for (const field of node.fields) {
      const found = badLiteralValue(field.value, [...path, field.name.value]);
      if (found) return found;
    }
  }
  return null;
}

/** The validation rules that speak of an operation's input: what a caller without the right must not hear. */
const literalRules = [ValuesOfCorrectTypeRule, ProvidedRequiredArgumentsRule, KnownArgumentNamesRule];

export function badInputError(detail: FieldError): GraphQLError {
  return new GraphQLError('The request is invalid.', {
    extensions: { code: 'VALIDATION_FAILED', details: [detail], http: { status: 400, headers: new HeaderMap() } },
  });
}

/**
 * The Apollo plugin: refuses bad text before execution, and answers 400 (not Apollo's 200 or 500)
 * to a request refused before it ran with VALIDATION_FAILED, such as an unknown persisted query or
 * a document of several operations without `operationName`. Input about to be refused (a literal
 * the schema does not take, bad text, variables that do not fit) is first put past the root
 * fields' rules on the caller (caller-first.ts): who may call is answered before what was sent.
 * Sound input is then counted in the limits its root fields declare (chain/limits.ts). Nulls that
 * stand for a default are taken as the default (null-defaults.ts).
 */
export function inputGuard(rules: RuleMap): ApolloServerPlugin<Context> {
  // A document's literals are checked once: Apollo hands the same parsed document to every request of one text.
  const literals = new WeakMap<DocumentNode, FieldError | null>();
  const badLiteralOf = (document: DocumentNode) => {
    let found = literals.get(document);
    if (found === undefined) literals.set(document, (found = badLiteral(document)));
    return found;
  };
  return {
    async requestDidStart() {
      return {
        async validationDidStart({ request, document, schema, contextValue }) {
          // Apollo does not wait for the end of validation: the refusal is decided here, and the
          // (synchronous) end takes the place of the validation errors with it.
          const operation = getOperationAST(document, request.operationName);
          const refusal =
            operation && validate(schema, document, literalRules).length
              ? await callerRefusal(rules, { schema, document, operation, variables: request.variables }, contextValue)
              : null;
          return async (errors) => {
            if (refusal && errors?.length) (errors as Error[]).splice(0, errors.length, graphqlRefusal(refusal));
          };
        },
        async didResolveOperation({ request, document, operation, schema, contextValue }) {
          if (!operation) return;
          nullsAsDefaults(schema, document, operation, request.variables);
          const guarded = { schema, document, operation, variables: request.variables };
          const bad = badVariable(request.variables) ?? badLiteralOf(document);
          if (bad || getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {}).errors) {
            const refusal = await callerRefusal(rules, guarded, contextValue);
            if (refusal) throw graphqlRefusal(refusal);
            // Variables that do not fit are refused by execution, before any resolver, in graphql's words.
            if (bad) throw badInputError(bad);
            return;
          }
          await countOperation(rules, guarded, contextValue);
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          if (data === undefined && errors?.[0]?.extensions?.code === 'VALIDATION_FAILED') response.http.status = 400;
        },
      };
    },
  };
}
