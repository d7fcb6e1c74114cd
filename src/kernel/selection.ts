import { type FragmentDefinitionNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/**
 * Whether the operation asks for a field of this name anywhere below the field being resolved
 * (through fragments too): a list can then read that field for all its items at once.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  return info.fieldNodes.some(
    (node) => node.selectionSet !== undefined && within(node.selectionSet, name, info.fragments, new Set()),
  );
}

function within(
  set: SelectionSetNode,
  name: string,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): boolean {
  return set.selections.some((selection) => {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments[selection.name.value];
      if (!fragment || seen.has(fragment.name.value)) return false;
      seen.add(fragment.name.value);
      return within(fragment.selectionSet, name, fragments, seen);
    }
    if (selection.kind === Kind.FIELD && selection.name.value === name) return true;
    return selection.selectionSet !== undefined && within(selection.selectionSet, name, fragments, seen);
  });
}

/** Whether every field the operation asks for directly below the field being resolved (through fragments too) is one of `names`. */
export function selectsOnly(info: GraphQLResolveInfo, names: ReadonlySet<string>): boolean {
  return info.fieldNodes.every(
    (node) => node.selectionSet === undefined || onlyIn(node.selectionSet, names, info.fragments, new Set()),
  );
}

function onlyIn(
  set: SelectionSetNode,
  names: ReadonlySet<string>,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): boolean {
  return set.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return names.has(selection.name.value);
    if (selection.kind === Kind.INLINE_FRAGMENT) return onlyIn(selection.selectionSet, names, fragments, seen);
    const fragment = fragments[selection.name.value];
    if (!fragment || seen.has(fragment.name.value)) return true;
    seen.add(fragment.name.value);
    return onlyIn(fragment.selectionSet, names, fragments, seen);
  });
}
