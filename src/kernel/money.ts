/**
 * Money as every page and mail shows it. The API counts in the currency's minor unit (499 USD is $4.99,
 * 199000 VND is 199,000 đồng: VND has no minor unit), so the amount is divided by the digits
 * Intl knows for that currency (ISO 4217) and written in the page's locale.
 * Pure, with no DOM and no import, so one function serves the commerce mails, the server-rendered
 * sandbox payment page and the admin console's bundle (web/admin-console) alike.
 */
export function formatMoney(minorUnits: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  return format.format(minorUnits / 10 ** format.resolvedOptions().maximumFractionDigits!);
}
