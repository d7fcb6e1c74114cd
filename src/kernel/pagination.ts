import { Max, Min } from 'class-validator';
import { ArgsType, type ClassType, Field, Int, ObjectType } from 'type-graphql';
import { validationFailed } from './errors';

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
  endCursor: string | null;
}

/** A keyset position: newest first by creation time, the id breaking ties. */
export interface Position {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString('base64url');
}

/** What encodeCursor writes: an ISO instant (years 0000-9999, as the database stores them) and a UUID. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A cursor this service did not write (a non-UUID id, a date out of range) is bad input, never a query. */
export function decodeCursor(cursor: string): Position {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString());
  const date = match ? new Date(match[1]) : null;
  if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString() !== match[1]) {
    throw validationFailed([{ field: 'after', message: 'is not a cursor of this list' }]);
  }
  return { createdAt: date, id: match[2] };
}

/** The MikroORM filter for rows after the cursor in newest-first order. */
export function afterCursor(after: string | null | undefined) {
  if (!after) return {};
  const { createdAt, id } = decodeCursor(after);
  return { $or: [{ createdAt: { $lt: createdAt } }, { createdAt, id: { $lt: id } }] };
}

/** Turns `first + 1` fetched rows into a page: the extra row only says whether there is more. */
export function toPage<T extends Position>(rows: T[], first: number): Page<T> {
  const nodes = rows.slice(0, first);
  const last = nodes.at(-1);
  return { nodes, hasNextPage: rows.length > first, endCursor: last ? encodeCursor(last) : null };
}

@ObjectType()
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

/** A Relay connection type for a node type: `edges { cursor node }` and `pageInfo`. */
export function Connection<T extends object>(node: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field(() => String)
    cursor!: string;

    @Field(() => node)
    node!: T;
  }

  @ObjectType(`${name}Connection`)
  class ConnectionType {
    @Field(() => [Edge])
    edges!: Edge[];

    @Field(() => [node], { description: 'The nodes of the edges, for callers that need no cursor per node' })
    nodes!: T[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { nullable: true, description: 'How many there are in all; null where counting would cost a query of its own' })
    totalCount!: number | null;
  }
  return ConnectionType;
}

export function toConnection<T extends Position>(page: Page<T> & { totalCount?: number }) {
  return {
    edges: page.nodes.map((node) => ({ cursor: encodeCursor(node), node })),
    nodes: page.nodes,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    totalCount: page.totalCount ?? null,
  };
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
export function pageOf<T extends Position>(rows: T[], first: number, after?: string | null): Page<T> & { totalCount: number } {
  const sorted = newestFirst([...rows]);
  let start = 0;
  if (after) {
    const { createdAt, id } = decodeCursor(after);
    const time = createdAt.getTime();
    start = sorted.findIndex((row) => row.createdAt.getTime() < time || (row.createdAt.getTime() === time && row.id < id));
    if (start < 0) start = sorted.length;
  }
  return { ...toPage(sorted.slice(start, start + first + 1), first), totalCount: sorted.length };
}
