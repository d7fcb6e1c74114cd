// graphql-schema-linter's configuration, for `npx graphql-schema-linter` and test/schema-lint.test.ts:
// the committed SDL (schema/schema.graphql, which test/schema.test.ts keeps equal to the code) with
// 0 findings.
module.exports = {
  schemaPaths: ['schema/schema.graphql'],
  // Every rule the linter ships.
  rules: [
    'arguments-have-descriptions',
    'defined-types-are-used',
    'deprecations-have-a-reason',
    'descriptions-are-capitalized',
    'enum-values-all-caps',
    'enum-values-have-descriptions',
    'enum-values-sorted-alphabetically',
    'fields-have-descriptions',
    'fields-are-camel-cased',
    'input-object-fields-sorted-alphabetically',
    'input-object-values-have-descriptions',
    'input-object-values-are-camel-cased',
    'interface-fields-sorted-alphabetically',
    'relay-connection-arguments-spec',
    'relay-connection-types-spec',
    'relay-page-info-spec',
    'type-fields-sorted-alphabetically',
    'types-are-capitalized',
    'types-have-descriptions',
  ],
  ignore: {
    // The SDL is printed sorted by graphql-js, which orders names naturally (activeLearners7d before
    // activeLearners30d); the linter's alphabetical order puts 30d first.
    'type-fields-sorted-alphabetically': ['PlatformStatsView'],
  },
};
