/**
 * Joins the domains' resolver maps into one. Each field has one owner: a field two domains both define
 * would otherwise go to whichever is listed last, silently, so that is refused when the schema is built.
 */

/** A domain's resolvers: type name → field name → resolver (or an enum's internal value). */
export type ResolverMap = Record<string, Record<string, unknown>>;

/** `domains`: each domain's name and resolvers; the name only serves the error message. */
export function mergeResolvers(domains: Record<string, ResolverMap>): ResolverMap {
  const out: ResolverMap = {};
  const owner = new Map<string, string>();
  for (const [domain, map] of Object.entries(domains)) {
    for (const [type, fields] of Object.entries(map)) {
      let merged = out[type];
      if (!merged) {
        merged = {};
        out[type] = merged;
      }
      for (const [field, resolver] of Object.entries(fields)) {
        const key = `${type}.${field}`;
        const first = owner.get(key);
        if (first !== undefined)
          throw new Error(`Resolver ${key} is defined by two domains, ${first} and ${domain}: keep it in one.`);
        owner.set(key, domain);
        merged[field] = resolver;
      }
    }
  }
  return out;
}
