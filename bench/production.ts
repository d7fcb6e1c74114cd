/**
 * Imported first by every benchmark: the service is measured as deployed, with NODE_ENV=production
 * in its environment (forked children inherit it). Libraries read it when first loaded: graphql-js
 * otherwise checks every `instanceof` that fails for a copy of itself from another realm.
 */
process.env.NODE_ENV = 'production';
