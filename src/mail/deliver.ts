/** A page of the web app, with the token the mail carries, for links in mails. */
export function publicLink(publicUrl: string, page: string, token?: string, query: Record<string, string> = {}): string {
  const url = new URL(page, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  for (const [key, value] of Object.entries({ ...query, ...(token ? { token } : {}) })) url.searchParams.set(key, value);
  return url.toString();
}
