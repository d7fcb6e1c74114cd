import { allow } from 'graphql-shield';
import { defineArea } from '../kernel/area';
import { isAuthenticated } from '../permissions/rules';
import { GraphResolver } from './graph.resolver';

/**
 * The entry points of the graph: `viewer`, and `node(id:)` / `nodes(ids:)` over the node types the
 * areas declare (`nodes` of each area). The edges themselves live in the areas that own their data.
 */
export const graphArea = defineArea({
  name: 'graph',
  uses: ['auth'],
  resolvers: [GraphResolver],
  // node and nodes check each node with its own type's rule (kernel/node.ts); anyone may ask.
  rules: { Query: { viewer: isAuthenticated, node: allow, nodes: allow } },
});
