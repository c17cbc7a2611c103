/**
 * How the server's SQL reaches PostgreSQL: statements are written with `?` placeholders (or `:name` ones with an
 * object of values) and numbered here into Postgres's `$1, $2, ...`, once per distinct text. Quoted strings,
 * quoted names, comments and `::` casts are left alone, so `'?'` or `x::bigint` never become a parameter.
 */

/** One value bound to a statement. Arrays bind as Postgres arrays (`= ANY(?::bigint[])`). */
export type SqlValue = string | number | boolean | null | Uint8Array | readonly (string | number)[];
/** Positional values for `?`, or named ones for `:name` (keys with or without the colon). */
export type Params = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/** A statement numbered for Postgres: its text and, for named statements, which name each `$n` takes. */
interface Numbered {
  text: string;
  /** The names of `$1, $2, ...` in order (named statements), or the count of `?` (positional ones). */
  names: string[] | number;
}

const cache = new Map<string, Numbered>();
const CACHE_MAX = 2000;

/** Numbers the placeholders of `sql` (see the file comment). */
function number(sql: string): Numbered {
  let out = '';
  let positional = 0;
  const names: string[] = [];
  const slots = new Map<string, number>();
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      // A quoted string or name, with doubled quotes inside: copied as it is.
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? sql.length : end;
      out += sql.slice(i, j);
      i = j - 1;
    } else if (c === ':' && sql[i + 1] === ':') {
      out += '::';
      i++;
    } else if (c === '?') {
      out += `$${++positional}`;
    } else if (c === ':' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      const name = m[0];
      let slot = slots.get(name);
      if (slot === undefined) {
        names.push(name);
        slots.set(name, (slot = names.length));
      }
      out += `$${slot}`;
      i += name.length;
    } else {
      out += c;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`SQL mixes ? and :name placeholders: ${sql}`);
  return { text: out, names: names.length > 0 ? names : positional };
}

/** The Postgres text and values of a statement and its parameters. */
export function bind(sql: string, params: Params = []): { text: string; values: SqlValue[] } {
  let numbered = cache.get(sql);
  if (!numbered) {
    numbered = number(sql);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(sql, numbered);
  }
  if (Array.isArray(params)) {
    const count = typeof numbered.names === 'number' ? numbered.names : -1;
    if (count !== params.length)
      throw new Error(`SQL takes ${count === -1 ? 'named' : count} parameters, got ${params.length}: ${sql}`);
    return { text: numbered.text, values: params as SqlValue[] };
  }
  const named = params as Record<string, SqlValue>;
  const names = typeof numbered.names === 'number' ? [] : numbered.names;
  if (typeof numbered.names === 'number' && numbered.names > 0)
    throw new Error(`SQL takes positional parameters: ${sql}`);
  const values = names.map((name) => {
    const value = named[`:${name}`] !== undefined ? named[`:${name}`] : named[name];
    if (value === undefined) throw new Error(`SQL parameter :${name} has no value: ${sql}`);
    return value;
  });
  return { text: numbered.text, values };
}
