import { buildSchema, graphql, type GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import { selectsField } from '../../src/kernel/selection';

// A list reads a field for all its items at once only when the operation asks for it: every way
// of asking (aliases, fragments, inline fragments, deeper levels) must count, and nothing else.
const schema = buildSchema(`
  type Course { id: ID! paid: Boolean! title: String! }
  type Edge { node: Course! }
  type PageInfo { hasNextPage: Boolean! }
  type Connection { edges: [Edge!]! pageInfo: PageInfo! }
  type Query { courses: Connection! }
`);

async function asks(document: string): Promise<boolean> {
  let seen: boolean | undefined;
  const courses = (_args: unknown, _ctx: unknown, info: GraphQLResolveInfo) => {
    seen = selectsField(info, 'paid');
    return { edges: [{ node: { id: '1', paid: true, title: 't' } }], pageInfo: { hasNextPage: false } };
  };
  const result = await graphql({ schema, source: document, rootValue: { courses } });
  expect(result.errors).toBeUndefined();
  return seen!;
}

describe('selectsField', () => {
  it('finds the field however the operation asks for it', async () => {
    expect(await asks('{ courses { edges { node { id paid } } } }')).toBe(true);
    expect(await asks('{ courses { edges { node { id isPaid: paid } } } }')).toBe(true);
    expect(await asks('{ courses { edges { node { ...F } } } } fragment F on Course { id paid }')).toBe(true);
    expect(
      await asks('{ courses { edges { ...E } } } fragment E on Edge { node { ...F } } fragment F on Course { paid }'),
    ).toBe(true);
    expect(await asks('{ courses { edges { node { ... on Course { paid } } } } }')).toBe(true);
    expect(await asks('{ a: courses { pageInfo { hasNextPage } } b: courses { edges { node { paid } } } }')).toBe(true);
  });

  it('does not find a field the operation leaves out', async () => {
    expect(await asks('{ courses { edges { node { id title } } pageInfo { hasNextPage } } }')).toBe(false);
    expect(await asks('{ courses { edges { node { paid: title } } } }')).toBe(false);
    expect(await asks('{ courses { edges { node { ...F ...F } } } } fragment F on Course { id }')).toBe(false);
  });
});
