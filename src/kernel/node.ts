import 'reflect-metadata';
import { Field, ID, InterfaceType } from 'type-graphql';
import type { ShieldRule } from './area';
import type { Context } from './context';

/**
 * Object identification (the Relay `Node` interface). A node's id is the id REST shows too (a
 * UUID, unique across every table), so `node(id:)` finds the type by the table that holds the id;
 * no second, "global" id exists for clients to keep apart.
 */
@InterfaceType('Node', {
  description:
    'An object with an id: `node(id:)` and `nodes(ids:)` fetch any of them again by that id, with the same permissions as its own query.',
  resolveType: (value: object) => nodeTypeOf(value),
})
export abstract class Node {
  @Field(() => ID, { description: 'The id of the object, the same in REST' })
  id!: string;
}

/** How `node(id:)` and `nodes(ids:)` fetch one type of node: the rule and the read of the type's own field. */
export interface NodeSource {
  /** The GraphQL object type (which implements Node). */
  type: string;
  /** The table whose `id` column (a UUID, unique across the node tables) holds these nodes. */
  table: string;
  /**
   * The shield rule of the type's own read and the root field it belongs to, with its arguments
   * for an id; checked for each node. A type without a root read of its own takes the rule of
   * the list it appears in (said where it is declared).
   */
  rule: ShieldRule;
  field: `Query.${string}`;
  args?: (id: string) => Record<string, unknown>;
  /**
   * Reads the nodes of these ids (all of this type, each one let through by `rule`) as the type's
   * own field does, in a fixed number of statements however many ids: what the caller may not
   * see is left out of the answer, in any order.
   */
  loadMany(ctx: Context, ids: string[]): Promise<{ id: string }[]>;
}

const sources = new Map<string, NodeSource>();
const typeOf = new WeakMap<object, string>();

/** Called by defineArea for the node types an area declares. */
export function registerNodes(list: readonly NodeSource[]): void {
  for (const source of list) {
    if (sources.has(source.type) && sources.get(source.type) !== source)
      throw new Error(`Two areas declare the node type ${source.type}`);
    sources.set(source.type, source);
  }
}

export function nodeSources(): NodeSource[] {
  return [...sources.values()];
}

/** Marks an object fetched through `node(id:)` with its type, for the interface's type resolution. */
export function asNode<T extends object>(type: string, value: T): T {
  typeOf.set(value, type);
  return value;
}

function nodeTypeOf(value: object): string | undefined {
  return typeOf.get(value) ?? (value as { __typename?: string }).__typename;
}
