/**
 * An element with its text and attributes. The pages build what they show from the API's answers
 * this way, never as markup, so that no value the API returns can become a tag or a script.
 */
export function el(tag: string, text?: string | null, attributes: Record<string, string> = {}): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  return node;
}
