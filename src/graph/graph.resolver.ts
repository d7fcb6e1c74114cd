import { ArrayMaxSize } from 'class-validator';
import { Arg, Args, ArgsType, Ctx, Field, ID, Query, Resolver } from 'type-graphql';
import { Role, UserView } from '../auth';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { asNode, Node, type NodeSource, nodeSources } from '../kernel/node';
import { enforce } from '../permissions/enforce';
import { unknownNode } from './graph.errors';

export const MAX_NODES = 100;

const PASSED_ON = new Set(['upstream_unavailable', 'account_suspended', 'account_deletion_pending']);

@ArgsType()
class NodesArgs {
  @Field(() => [ID], { description: 'At most 100' })
  @ArrayMaxSize(MAX_NODES)
  ids!: string[];
}

/** Where a found id is: its node type, and the context that reads it (the caller's, or one on another region's database). */
interface Found {
  source: NodeSource;
  ctx: Context;
}

/**
 * Which type each id belongs to, in one statement over the tables of every node type. Only ids
 * found are answered; what they are is told only once the type's own rule lets the caller see it.
 * An admin's ids not found in the caller's region are looked for in the others' (an admin reads
 * the rows of every region: a vn learner's consent, a vn school), each read there.
 */
async function typesOf(ctx: Context, ids: string[]): Promise<Map<string, Found>> {
  const wanted = [...new Set(ids.filter(isId))];
  const sources = nodeSources();
  if (!wanted.length || !sources.length) return new Map();
  const byType = new Map(sources.map((s) => [s.type, s]));
  if (sources.some((s) => !/^\w+$/.test(s.type) || !/^\w+$/.test(s.table)))
    throw new Error('A node type or table name is not a plain identifier');
  const union = sources
    .map((s) => `select '${s.type}' as type, id::text as id from ${s.table} where id = any(?::uuid[])`)
    .join(' union all ');
  const params = (among: string[]) => sources.map(() => `{${among.join(',')}}`);
  const rows = await ctx.em.execute<{ type: string; id: string }[]>(union, params(wanted));
  const found = new Map(rows.map((row) => [row.id, { source: byType.get(row.type)!, ctx }]));
  const missing = wanted.filter((id) => !found.has(id));
  if (!missing.length || !ctx.auth.roles?.includes(Role.admin)) return found;
  const { deps } = ctx.uow;
  for (const view of deps.regions.filter((other) => other.region !== deps.region)) {
    const elsewhere = await view.sql.query<{ type: string; id: string }>(union, params(missing));
    if (!elsewhere.length) continue;
    const { uow, services } = view.unit();
    const regional = Object.assign(Object.create(ctx) as Context, { uow, services });
    for (const row of elsewhere) found.set(row.id, { source: byType.get(row.type)!, ctx: regional });
  }
  return found;
}

/** Whether the caller passes the node type's own rule for this id; what the caller is (suspended, throttled) or what is down is thrown. */
async function mayRead(ctx: Context, id: string, source: NodeSource): Promise<boolean> {
  try {
    await enforce(source.rule, ctx, source.field, source.args?.(id) ?? { id });
    return true;
  } catch (error) {
    if (!(error instanceof AppError) || PASSED_ON.has(error.code)) throw error;
    return false;
  }
}

/**
 * The nodes as the caller may see them, in the order asked, else not_found: a refusal looks the
 * same as an id that names nothing. Each id is checked with its own type's rule, then each type
 * is read once for all of its ids that passed, so 100 ids cost what one id of each type costs.
 */
async function visibleNodes(ctx: Context, ids: string[]): Promise<(object | Error)[]> {
  const types = await typesOf(ctx, ids);
  const allowed = await Promise.all(
    ids.map(async (id) => {
      const found = types.get(id);
      return found ? mayRead(found.ctx, id, found.source) : false;
    }),
  );
  const wanted = new Map<NodeSource, Map<Context, Set<string>>>();
  ids.forEach((id, i) => {
    if (!allowed[i]) return;
    const { source, ctx: reader } = types.get(id)!;
    const byReader = wanted.get(source) ?? wanted.set(source, new Map()).get(source)!;
    byReader.set(reader, (byReader.get(reader) ?? new Set()).add(id));
  });
  const found = new Map<string, object>();
  await Promise.all(
    [...wanted].flatMap(([source, byReader]) =>
      [...byReader].map(async ([reader, list]) => {
        let nodes: { id: string }[];
        try {
          nodes = await source.loadMany(reader, [...list]);
        } catch (error) {
          // A read that refuses (rather than leaving out) hides its nodes the same way.
          if (!(error instanceof AppError) || PASSED_ON.has(error.code)) throw error;
          return;
        }
        for (const node of nodes) if (list.has(node.id)) found.set(node.id, asNode(source.type, node));
      }),
    ),
  );
  return ids.map((id) => found.get(id) ?? unknownNode().toGraphQLError());
}

@Resolver()
export class GraphResolver {
  @Query(() => UserView, {
    nullable: true,
    description: 'The signed-in account (the Relay name of `me`): where a dashboard starts walking the graph',
  })
  viewer(@Ctx() ctx: Context) {
    return ctx.viewer();
  }

  @Query(() => Node, {
    nullable: true,
    description:
      'Any object by its id, if the caller may see it (the same rules as its own query); otherwise null with a NOT_FOUND error, whether or not it exists',
  })
  async node(
    @Arg('id', () => ID, { description: 'A global id, as any type that implements Node returns it' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<object | null> {
    const [found] = await visibleNodes(ctx, [id]);
    if (found instanceof Error) throw found;
    return found;
  }

  @Query(() => [Node], {
    nullable: 'items',
    description:
      'Objects by their ids (at most 100), in the same order; each one the caller may not see is null with a NOT_FOUND error',
  })
  async nodes(@Args(() => NodesArgs) args: NodesArgs, @Ctx() ctx: Context): Promise<(object | Error)[]> {
    return visibleNodes(ctx, args.ids);
  }
}
