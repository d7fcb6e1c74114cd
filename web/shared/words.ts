/** How the pages write the API's values for a reader: its identifiers (`awaiting_approval`) as words. */
export function words(value: string): string {
  return value.replaceAll('_', ' ');
}

/**
 * The noun for a count, singular or plural as the page's language has it (1 creator, 2 creators);
 * the nouns are English, as the admin pages are, and the rule is that of the page's language.
 */
export function noun(count: number, one: string, other = `${one}s`): string {
  return new Intl.PluralRules(document.documentElement.lang || 'en').select(count) === 'one' ? one : other;
}
