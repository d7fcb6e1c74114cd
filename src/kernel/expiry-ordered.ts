/**
 * Puts `value` last in a map kept in the order its entries expire in (a cache whose entries all
 * live about as long): the expired ones, all at the front, go first, then the oldest while the map
 * holds `max`. A cache that only dropped its oldest when full kept whatever it had seen until then.
 */
export function putLast<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  options: { max: number; expiresAt: (value: V) => number; now?: number },
): void {
  const now = options.now ?? Date.now();
  for (const [kept, entry] of map) {
    if (options.expiresAt(entry) > now) break;
    map.delete(kept);
  }
  map.delete(key);
  if (map.size >= options.max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
