import i18next, { type TFunction } from 'i18next';

/** The languages mails are written in (the spec's Vietnamese and English); anything else reads English. */
export const MAIL_LANGUAGES = ['en', 'vi'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export const mailLanguage = (locale: string | null | undefined): MailLanguage => (locale === 'vi' ? 'vi' : 'en');

type Catalog = { [key: string]: string | Catalog };

/**
 * The message catalogs of every mail: one i18next instance, a namespace per area (`auth`,
 * `guardian`, `gdpr`, `contact`, `reports`). Mail texts come from here, in the recipient's
 * language, never from string literals in the code that sends them.
 */
const messages = i18next.createInstance();
void messages.init({
  fallbackLng: 'en',
  supportedLngs: [...MAIL_LANGUAGES],
  ns: [],
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Adds an area's catalog (both languages) and gives its translator: `texts(locale)('key', values)`. */
export function defineMessages(
  namespace: string,
  catalogs: Record<MailLanguage, Catalog>,
): (locale: string | null | undefined) => TFunction {
  for (const language of MAIL_LANGUAGES)
    messages.addResourceBundle(language, namespace, catalogs[language], true, true);
  return (locale) => messages.getFixedT(mailLanguage(locale), namespace);
}

/** The keys of a namespace in one language, for the test that both languages say everything. */
export function catalogKeys(namespace: string, language: MailLanguage): string[] {
  const walk = (node: Catalog, prefix: string): string[] =>
    Object.entries(node).flatMap(([key, value]) =>
      typeof value === 'string' ? [`${prefix}${key}`] : walk(value, `${prefix}${key}.`),
    );
  return walk((messages.getResourceBundle(language, namespace) as Catalog | undefined) ?? {}, '').map((key) =>
    key.replace(/_(one|other|few|many|two|zero)$/, ''),
  );
}

export const mailNamespaces = (): string[] => Object.keys(messages.store.data.en ?? {});

/** One text of a catalog in a language (for tests and tools that check what a mail says). */
export function mailText(namespace: string, locale: string, key: string, values: Record<string, unknown> = {}): string {
  return messages.getFixedT(mailLanguage(locale), namespace)(key, values);
}
