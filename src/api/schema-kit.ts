/**
 * The building blocks of the contract's schemas, and the one rule every answer is read by (docs/embedding.md, "Your
 * own channel API"): a channel's API built to the spec by another back end writes its JSON in its own habits, and the
 * elements read them all.
 *
 * - unknown fields are ignored (zod's objects strip them);
 * - flags accept `true`/`false`, `1`/`0`, `"1"`/`"0"` and `"true"`/`"false"` (any letter case), nothing else; ids and
 *   numbers accept numeric strings;
 * - an optional field accepts absence and `null`, and a value it cannot read, and takes its default (`opt`); one of
 *   money or access takes its default for absence and `null` only, a value it cannot read makes its record
 *   unreadable (`optStrict`);
 * - an object accepts `[]` as empty (PHP's `json_encode` of an empty array: `obj`, `dict`);
 * - a list keeps every record it can read and leaves out the others (`list`), each noted for the client to report;
 *   a list is an error only when it is not a list; a record of keys to values (`dict`: colours, static blocks) keeps
 *   the same way every value it can read;
 * - what is required stays required: a record without it is no record.
 * URLs and HTML are not this rule's business: their rules (src/lib/url-rules.ts, the sanitizer) stay as strict.
 */
import * as z from 'zod/mini';

/** A number that may arrive as a numeric string (some channel back ends send ids as strings). */
export const id = z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^\d+$/))]),
  z.transform((v) => Number(v)),
);
/** A number that may arrive as a numeric string (`"9.99"`, `"-3"`: a decimal column read by PHP). */
export const num = z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^-?\d+(\.\d+)?$/))]),
  z.transform((v) => Number(v)),
);
/** A date and time as a back end writes it: `2026-01-02T10:00:00.000000Z`, `2026-01-02 10:00:00`, with a zone or not. */
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?/;

/**
 * A date and time as UNIX seconds (UTC when it names no zone), or NaN when it names no moment: MySQL's zero date
 * (`0000-00-00 00:00:00`), a month 13, a February 31 (which `Date.parse` would roll over into March), an hour 24.
 */
function dateSeconds(v: string): number {
  const [, year, month, day, hour, minute, second] = DATE_TIME.exec(v)!.map(Number) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day));
  return date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day || hour! > 23 || minute! > 59 || second! > 59
    ? NaN
    : Math.floor(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`) / 1000);
}

/**
 * A moment as UNIX seconds: a number, a numeric string, or a date and time as a back end's timestamps write it
 * (`dateSeconds`). One that names no moment, or one too far for a date to hold (ECMAScript's ±8.64e12 s), is
 * unreadable: a required time makes its record unreadable, an optional one takes its default; never NaN, which a
 * date format throws on.
 */
export const time = z.pipe(
  z.union([num, z.pipe(z.string().check(z.regex(DATE_TIME)), z.transform(dateSeconds))]),
  z.number().check(z.gte(-8.64e12), z.lte(8.64e12)),
);

/** What a flag may be written as (letter case aside), each true value before its false one. */
const FLAGS: unknown[] = [true, false, 1, 0, '1', '0', 'true', 'false'];
/** A flag's place in FLAGS (-1: not a flag). */
const flagAt = (v: unknown) => FLAGS.indexOf(typeof v === 'string' ? v.toLowerCase() : v);

/**
 * A flag written as a boolean, 0/1, "0"/"1" or "true"/"false" in any letter case (auth.remote_auth is 0 or 1, treated as
 * boolean). Anything else ("yes", 2) is unreadable, never false.
 */
export const flag = z.pipe(
  z.custom<unknown>((v) => flagAt(v) >= 0),
  z.transform((v) => flagAt(v) % 2 === 0),
);
/** A string. */
export const text = z.string();

/** `[]` where an object belongs: the empty object a PHP back end writes as an empty array. */
const emptyArrayAsObject = z.transform((v: unknown) => (Array.isArray(v) && !v.length ? {} : v));

/** An object of the contract: unknown fields ignored, `[]` read as empty. */
export const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.pipe(emptyArrayAsObject, z.object(shape));

/**
 * An optional field: absent, `null` or a value it cannot read is `fallback` (the spec's default), else undefined
 * (null kept as the client has always seen it).
 */
export function opt<T extends z.ZodMiniType>(
  schema: T,
): z.ZodMiniOptional<z.ZodMiniCatch<z.ZodMiniOptional<z.ZodMiniNullable<T>>>>;
export function opt<T extends z.ZodMiniType>(
  schema: T,
  fallback: z.core.util.NoUndefined<z.output<T>>,
): z.ZodMiniDefault<z.ZodMiniCatch<T>>;
export function opt(schema: z.ZodMiniType, fallback?: unknown): z.ZodMiniType {
  return fallback === undefined
    ? z.optional(z.catch(z.optional(z.nullable(schema)), undefined))
    : z._default(z.catch(schema, fallback as never), fallback as never);
}

/**
 * An optional field of money or access (a price, a fee, an event's type, a geo-block...): absent or `null` is
 * `fallback` (the spec's default), else undefined (null kept), as `opt`; but a value it cannot read is not guessed:
 * its record cannot be read (left out of its list and reported, or its answer refused), so that a paid event never
 * reads as free, nor a fee of "0,50" as 0.
 */
export function optStrict<T extends z.ZodMiniType>(schema: T): z.ZodMiniOptional<z.ZodMiniNullable<T>>;
export function optStrict<T extends z.ZodMiniType>(
  schema: T,
  fallback: z.core.util.NoUndefined<z.output<T>>,
): z.ZodMiniDefault<z.ZodMiniPipe<z.ZodMiniTransform, T>>;
export function optStrict(schema: z.ZodMiniType, fallback?: unknown): z.ZodMiniType {
  return fallback === undefined
    ? z.optional(z.nullable(schema))
    : z._default(
        z.pipe(
          z.transform((v) => v ?? fallback),
          schema as never,
        ),
        fallback as never,
      );
}

/** A string that may be absent, null or unreadable (undefined then). */
export const maybeText = opt(text);

/** A named record whose alias, when it has none, is its name (the spec: "the group alias, or the name if there is no alias"). */
export const aliased = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.pipe(
    obj(shape),
    z.transform((v) => {
      const named = v as { name: string; alias?: string | null };
      return { ...v, alias: named.alias || named.name } as typeof v;
    }),
  );

/**
 * What a list (or a record of records) left out while an answer is read: the raw list or record it was in, its
 * place there, and the path of the field that could not be read inside it.
 */
interface Note {
  within: object;
  at: string | number;
  path: PropertyKey[];
}

/** Where `keep` notes what it leaves out while an answer is read (`readAnswer`); undefined outside one. */
let notes: Note[] | undefined;

/**
 * Reads `value`, the entry `at` of `within` (a raw list or record), with `item`. What it cannot read is noted, and
 * what was noted inside it forgotten: it is left out whole, and reported as itself.
 */
function keep<T extends z.ZodMiniType>(item: T, within: object, at: string | number, value: unknown) {
  const outer = notes;
  const inner = (notes = outer && []);
  const read = item.safeParse(value) as z.core.util.SafeParseResult<z.output<T>>;
  notes = outer;
  if (read.success) outer?.push(...inner!);
  else outer?.push({ within, at, path: read.error.issues[0]?.path ?? [] });
  return read;
}

/** A list as it came (the raw array itself, so that `readAnswer` can tell where in the answer it was). */
const anyList = z.custom<unknown[]>(Array.isArray);

/**
 * A list of records: each read on its own, the unreadable ones left out (and noted for `readAnswer`), so one bad
 * record costs that record only. Not a list at all is an error.
 */
export const list = <T extends z.ZodMiniType>(item: T) =>
  z.pipe(
    anyList,
    z.transform((records) =>
      records.flatMap((record, index) => {
        const read = keep(item, records, index, record);
        return read.success ? [read.data] : [];
      }),
    ),
  );

/** A record (keys to values) as it came, `[]` read as empty (the raw object itself, as `anyList`). */
const anyRecord = z.pipe(
  emptyArrayAsObject,
  z.custom<Record<string, unknown>>((v) => !!v && typeof v === 'object' && !Array.isArray(v)),
);

/**
 * A record (keys to values) of the contract, `[]` read as empty: each value read on its own, as a list's records,
 * an unreadable one left out (and noted for `readAnswer`), so one bad value (a colour written null) costs that entry
 * only. Not a record at all is an error.
 */
export const dict = <V extends z.ZodMiniType>(value: V) =>
  z.pipe(
    anyRecord,
    z.transform(
      (entries) =>
        Object.fromEntries(
          Object.entries(entries).flatMap(([key, entry]) => {
            const read = keep(value, entries, key, entry);
            return read.success ? [[key, read.data]] : [];
          }),
        ) as Record<string, z.output<V>>,
    ),
  );

/**
 * Reads `value` with `schema`, with what its lists and dicts left out as the lines the client reports for `service` (its
 * endpoint): the id of the outermost record it was in (when it has one) and the path of the field that could not be
 * read, from the answer's top; never a value. Nothing is reported of an answer that cannot be read at all: its own
 * error is.
 */
export function readAnswer<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  service: string,
): { result: z.core.util.SafeParseResult<z.output<S>>; dropped: string[] } {
  const outer = notes;
  const mine: Note[] = (notes = []);
  try {
    const result = schema.safeParse(value) as z.core.util.SafeParseResult<z.output<S>>;
    return { result, dropped: result.success ? lines(value, mine, service) : [] };
  } finally {
    notes = outer;
  }
}

/**
 * The lines of `found` (notes of `answer`): where in the answer each entry was (its containers found by identity, in
 * one walk), and the id of the outermost record on that path.
 */
function lines(answer: unknown, found: Note[], service: string): string[] {
  if (!found.length) return [];
  const wanted = new Set(found.map((note) => note.within));
  const places = new Map<object, string[]>();
  const path: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (wanted.has(node)) places.set(node, [...path]);
    for (const key of Object.keys(node)) {
      path.push(key);
      walk((node as Record<string, unknown>)[key]);
      path.pop();
    }
  };
  walk(answer);
  return found.map(({ within, at, path: inside }) => {
    const full = [...(places.get(within) ?? []), at, ...inside].map(String);
    let node = answer;
    let id: string | undefined;
    for (const key of full) {
      node = (node as Record<string, unknown> | null | undefined)?.[key];
      const own = node && typeof node === 'object' && !Array.isArray(node) && (node as { id?: unknown }).id;
      if (id === undefined && (typeof own === 'number' || typeof own === 'string')) id = String(own).slice(0, 40);
    }
    const what = typeof at === 'number' ? 'a record' : 'an entry';
    return `${service}: left out ${what} it cannot read (${id === undefined ? '' : `id ${id}, `}field ${full.join('.')})`;
  });
}

/**
 * Pagination metadata as any back end writes it: ours (`total`, `offset`, `limit`) or Laravel's (`total`, `per_page`,
 * `current_page`, `from`), which a list's `links` go beside (ignored).
 */
const pageMeta = obj({
  total: opt(num),
  offset: opt(num),
  limit: opt(num),
  per_page: opt(num),
  current_page: opt(num),
  from: opt(num),
});

/**
 * A page of a list, `{ data, meta }`, read by the list's rule: `meta` as ours, whatever the back end wrote (without
 * one, the page is the whole list), and `skipped` when records of the page were left out (how many), so the next
 * page starts where the server's did.
 */
export const paged = <T extends z.ZodMiniType>(item: T) => {
  const records = list(item);
  return z.pipe(
    obj({ data: anyList, meta: opt(pageMeta) }),
    z.transform(({ data, meta: given }) => {
      const kept = records.parse(data);
      const meta = given ?? {};
      const limit = meta.limit ?? meta.per_page ?? data.length;
      const offset =
        meta.offset ?? (meta.from ? meta.from - 1 : meta.current_page ? (meta.current_page - 1) * limit : 0);
      const skipped = data.length - kept.length;
      return {
        data: kept,
        meta: { total: meta.total ?? offset + data.length, offset, limit, ...(skipped > 0 && { skipped }) },
      };
    }),
  );
};

/** Wraps a payload schema in the `{ data }` envelope. */
export const envelope = <T extends z.ZodMiniType>(schema: T) => obj({ data: schema });

/** One call of the contract: method, path (relative to the API base, `{name}` placeholders), keyless, answer. */
export interface Endpoint<R extends z.ZodMiniType = z.ZodMiniType> {
  /** Its name in the contract (what the request tracker and the logs call it). */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  /** Keyless calls carry `channel_key` instead of `api_key`, so that one server can host many channels. */
  readonly keyless: boolean;
  /**
   * Its body goes as a form, not JSON, and without the viewer's token, which it does not need (`get_api_key` only:
   * a CORS simple request, api-paths.ts FORM_TYPE says why).
   */
  readonly form?: true;
  readonly response: R;
}

/**
 * An area's endpoints, each named by its key. Each area's table sits beside its schemas, so a page carries the
 * calls (and the schemas) of the areas its code uses, not the whole contract (contract.ts joins them all).
 */
/* @__NO_SIDE_EFFECTS__ */
export function endpointTable<const T extends Record<string, Omit<Endpoint, 'name'>>>(
  table: T,
): { readonly [K in keyof T & string]: T[K] & { readonly name: K } } {
  return Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, { ...spec, name }])) as never;
}
