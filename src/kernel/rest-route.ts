import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FragmentDefinitionNode, Kind, type OperationDefinitionNode, parse, print } from 'graphql';

/**
 * A row of the REST table: a path of the specification served by a stored GraphQL operation, so
 * REST and GraphQL share resolvers, permission rules and limits. Each area lists its own rows.
 *
 * Variables come from the request by name: path parameters, query parameters (`limit` and `cursor`
 * become `first` and `after`), and the JSON body, which is `$input` when the operation takes one and
 * otherwise gives its fields by name. Success is `status` with the value of the operation's one
 * root field, shaped by `body`: `list` (a connection as `{ items, nextCursor }`), `accepted`
 * (`{ accepted: true }`), or `{ wrap: 'user' }` (`{ user: <value> }`).
 */
export type BodyMapping = 'list' | 'accepted' | { wrap: string };

/** A variable a client sends as a request header (the checkout's Idempotency-Key), never in the query or the body. */
export interface HeaderVariable {
  name: string;
  description: string;
}

/** An answer chosen by the operation's value: this status, with one field of the value alone or as `{ field: value }`. */
export interface AnswerOfField {
  status: 200 | 201 | 202;
  field: string;
  wrapped: boolean;
}

export interface RestRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  operation: string;
  status: 200 | 201 | 202 | 204;
  summary: string;
  body?: BodyMapping;
  /** Answers by the operation's value instead of `status` and `body`: the first whose field is set, else the last. */
  answers?: AnswerOfField[];
  /** The operation's variables read from request headers, by variable name. */
  headers?: Record<string, HeaderVariable>;
  /** The area that lists the row (set as the areas are composed): the OpenAPI document lists its reasons. */
  area?: string;
}

/**
 * The area's rows with their operations read from `<dir>/<file>`. Each operation is sent alone
 * (an operation that spreads a fragment of the same file takes the fragment along).
 */
export function restRoutes(dir: string, file: string, rows: RestRoute[]): RestRoute[] {
  const document = parse(readFileSync(join(dir, file), 'utf8'));
  const fragments = document.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  const operations = new Map(
    document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name !== undefined)
      .map((d) => [d.name!.value, print({ kind: Kind.DOCUMENT, definitions: [d, ...usedFragments(d, fragments)] })]),
  );
  return rows.map((row) => {
    const operation = operations.get(row.operation);
    if (!operation) throw new Error(`${file}: no operation ${row.operation} for ${row.method} ${row.path}`);
    return { ...row, operation };
  });
}

/** The fragments an operation spreads, directly or through another fragment. */
function usedFragments(
  operation: OperationDefinitionNode,
  fragments: FragmentDefinitionNode[],
): FragmentDefinitionNode[] {
  const used = new Set<FragmentDefinitionNode>();
  let text = print(operation);
  for (let grew = true; grew;) {
    grew = false;
    for (const fragment of fragments) {
      if (used.has(fragment) || !new RegExp(`\\.\\.\\.${fragment.name.value}\\b`).test(text)) continue;
      used.add(fragment);
      text += print(fragment);
      grew = true;
    }
  }
  return [...used];
}
