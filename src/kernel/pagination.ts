import { Max, Min } from 'class-validator';
import { ArgsType, type ClassType, Field, Int, ObjectType } from 'type-graphql';
import { unknownCursor } from './errors';

export const MAX_PAGE_SIZE = 100;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 20, description: 'At most 100' })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  first: number = 20;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page' })
  after?: string | null;
}

export interface Page<T> {
  nodes: T[];
  hasNextPage: boolean;
  /** Whether rows come before the page: it starts after a cursor. */
  hasPreviousPage?: boolean;
  endCursor: string | null;
  /** How many rows the list holds in all, or the query that counts them, run only when a client asks. */
  totalCount: Count;
}

export type Count = number | (() => Promise<number>);

/** A keyset position: newest first by creation time, the id breaking ties. */
export interface Position {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

/** A cursor for lists whose order has no keyset (by sales, by price): how many items come before the next page. */
export const offsetCursor = (offset: number) => Buffer.from(String(offset)).toString('base64url');

/** What encodeCursor writes: an ISO instant (years 0000-9999, as the database stores them) and a UUID. */
const CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A cursor this service did not write (a non-UUID id, a date out of range) is bad input, never a query. */
export function decodeCursor(cursor: string): Position {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  const date = match ? new Date(match[1]) : null;
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString() !== match[1]) {
    throw unknownCursor();
  }
  return { createdAt: date, id: match[2] };
}

/** The MikroORM filter for rows after the cursor in newest-first order. */
export function afterCursor(after: string | null | undefined) {
  if (!after) return {};
  const { createdAt, id } = decodeCursor(after);
  return { $or: [{ createdAt: { $lt: createdAt } }, { createdAt, id: { $lt: id } }] };
}

/**
 * Turns `first + 1` fetched rows into a page: the extra row only says whether there is more. A page
 * read after a cursor has rows before it (those of the pages the cursor came from); `count` counts
 * the whole list, the cursor left out.
 */
export function toPage<T extends Position>(
  rows: T[],
  first: number,
  after: string | null | undefined,
  count: Count,
): Page<T> {
  const nodes = rows.slice(0, first);
  const last = nodes.at(-1);
  return {
    nodes,
    hasNextPage: rows.length > first,
    hasPreviousPage: Boolean(after),
    endCursor: last ? encodeCursor(last) : null,
    totalCount: count,
  };
}

@ObjectType({ description: 'Where a page stands in its list (Relay cursor connections)' })
export class PageInfo {
  @Field(() => Boolean, { description: 'Whether more items follow: pass endCursor as `after` to read them' })
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'Whether items come before this page: true on every page read after a cursor' })
  hasPreviousPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the first item of the page; null when the page is empty',
  })
  startCursor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the last item of the page, to pass as `after`; null when the page is empty',
  })
  endCursor!: string | null;
}

/** A Relay connection type for a node type: `edges { cursor node }` and `pageInfo`. */
export function Connection<T extends object>(node: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} of a list, with its cursor` })
  class Edge {
    @Field(() => String, {
      description: 'Where this item stands in the list: pass it as `after` to read the items that follow',
    })
    cursor!: string;

    @Field(() => node, { description: `The ${name}` })
    node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of a list of ${name} items, newest first` })
  class ConnectionType {
    @Field(() => [Edge], { description: 'The items of the page, each with its cursor' })
    edges!: Edge[];

    @Field(() => [node], { description: 'The nodes of the edges, for callers that need no cursor per node' })
    nodes!: T[];

    @Field(() => PageInfo, {
      description: 'Whether items come before or after this page, and the cursors to read them',
    })
    pageInfo!: PageInfo;

    /** The count already known (a list read whole), or the query that counts it, run only when a client asks. */
    count!: Count;

    @Field(() => Int, { description: 'How many items the whole list holds, across all its pages' })
    totalCount(): number | Promise<number> {
      return typeof this.count === 'function' ? this.count() : this.count;
    }
  }
  return ConnectionType;
}

export function toConnection<T extends Position>(page: Page<T>) {
  const edges = page.nodes.map((node) => ({ cursor: encodeCursor(node), node }));
  return {
    edges,
    nodes: page.nodes,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage ?? false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: page.endCursor,
    },
    count: page.totalCount,
  };
}

/** A connection whose nodes are the page's rows as `present` shows them (an entity read, a view answered). */
export function toConnectionOf<T extends Position, V>(page: Page<T>, present: (row: T) => V) {
  const c = toConnection(page);
  const edges = c.edges.map((e) => ({ cursor: e.cursor, node: present(e.node) }));
  return { ...c, edges, nodes: edges.map((e) => e.node) };
}

/** Newest first, the id breaking ties: the order every cursor of this service follows. */
export function newestFirst<T extends Position>(rows: T[]): T[] {
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/**
 * A page of rows already read for many parents at once (a batched edge): the rows after the cursor
 * in newest-first order, `first` of them, and the count of all. Rows added while a client pages are
 * newer than its cursor, so they never show up twice nor push another row out of the pages.
 */
export function pageOf<T extends Position>(rows: T[], first: number, after?: string | null): Page<T> {
  const sorted = newestFirst([...rows]);
  let start = 0;
  if (after) {
    const { createdAt, id } = decodeCursor(after);
    const time = createdAt.getTime();
    start = sorted.findIndex(
      (row) => row.createdAt.getTime() < time || (row.createdAt.getTime() === time && row.id < id),
    );
    if (start < 0) start = sorted.length;
  }
  return { ...toPage(sorted.slice(start, start + first + 1), first, after, sorted.length), hasPreviousPage: start > 0 };
}
