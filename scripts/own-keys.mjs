// A rollup plugin for host pages that add enumerable properties to Object.prototype (old libraries do:
// `Object.prototype.polluted = 'yes'`). zod walks its own tables and the objects it parses with `for...in`, which
// also visits inherited keys, and stops at load ("Cannot read properties of undefined (reading 'get')" from
// zod's util.js `members`). Each such loop in zod's modules is rewritten to skip keys the object does not own,
// which is what every one of them means (the objects are zod's own literals or the parsed JSON).
// test/e2e/hostile-hosts.spec.ts loads every element on a polluted page.

const FOR_IN = /for \(const (\w+) in ([\w$.]+|\$\{\w+\})\) \{/g;
const ZOD = /[\\/]node_modules[\\/]zod[\\/]/;

/** Rewrites `for (const k in obj) {` in zod to skip inherited keys; the count is checked so a zod update that
 * writes its loops differently fails the build instead of quietly breaking polluted pages again. */
export function ownKeysOnly() {
  let rewritten = 0;
  return {
    name: 'own-keys-only',
    transform(code, id) {
      if (!ZOD.test(id)) return null;
      const out = code.replace(FOR_IN, (_all, key, object) => {
        rewritten++;
        return `for (const ${key} in ${object}) { if (!Object.prototype.hasOwnProperty.call(${object}, ${key})) continue;`;
      });
      return out === code ? null : { code: out, map: null };
    },
    buildEnd() {
      if (this.getModuleIds && [...this.getModuleIds()].some((id) => ZOD.test(id)) && rewritten === 0)
        this.error('own-keys-only: zod is bundled but none of its for...in loops matched; check scripts/own-keys.mjs');
    },
  };
}
