/**
 * The building blocks of the contract's schemas, and the one rule every answer is read by (docs/embedding.md, "Your
 * own channel API"): a channel's API built to the spec by another back end writes its JSON in its own habits, and the
 * elements read them all.
 *
 * - unknown fields are ignored (zod's objects strip them);
 * - flags accept `true`/`false`, `1`/`0` and `"1"`/`"0"`; ids and numbers accept numeric strings;
 * - an optional field accepts absence and `null`, and a value it cannot read, and takes its default (`opt`);
 * - an object accepts `[]` as empty (PHP's `json_encode` of an empty array: `obj`, `dict`);
 * - a list keeps every record it can read and leaves out the others (`list`), each noted for the client to report;
 *   a list is an error only when it is not a list;
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
/**
 * A moment as UNIX seconds: a number, a numeric string, or a date and time as a back end's timestamps write it
 * (`2026-01-02T10:00:00.000000Z`, `2026-01-02 10:00:00`, read as UTC without a zone).
 */
export const time = z.union([
  num,
  z.pipe(
    z.string().check(z.regex(/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/)),
    z.transform((v) => Math.floor(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`) / 1000)),
  ),
]);
/** A flag that may arrive as 0/1, "0"/"1" or a boolean (e.g. auth.remote_auth is 0 or 1, treated as boolean). */
export const flag = z.pipe(
  z.union([z.boolean(), z.number(), z.string()]),
  z.transform((v) => v === true || v === 1 || v === '1' || v === 'true'),
);
/** A string. */
export const text = z.string();

/** `[]` where an object belongs: the empty object a PHP back end writes as an empty array. */
const emptyArrayAsObject = z.transform((v: unknown) => (Array.isArray(v) && !v.length ? {} : v));

/** An object of the contract: unknown fields ignored, `[]` read as empty. */
export const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.pipe(emptyArrayAsObject, z.object(shape));

/** A record (keys to values) of the contract, `[]` read as empty. */
export const dict = <V extends z.core.SomeType>(value: V) => z.pipe(emptyArrayAsObject, z.record(z.string(), value));

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

/** A record a list left out: its place, its id when it has one, and the field that could not be read. */
export interface Dropped {
  index: number;
  id?: string | undefined;
  path: string;
}

/** Where `list` notes what it leaves out while an answer is read (`readAnswer`). */
let dropped: Dropped[] | undefined;

/**
 * A list of records: each read on its own, the unreadable ones left out (and noted for `readAnswer`), so one bad
 * record costs that record only. Not a list at all is an error.
 */
export const list = <T extends z.ZodMiniType>(item: T) =>
  z.pipe(
    z.array(z.unknown()),
    z.transform((records) => {
      const kept: z.output<T>[] = [];
      records.forEach((record, index) => {
        const read = item.safeParse(record);
        if (read.success) kept.push(read.data);
        else {
          const key = (record as { id?: unknown } | null)?.id;
          dropped?.push({
            index,
            id: typeof key === 'number' || typeof key === 'string' ? String(key).slice(0, 40) : undefined,
            path: read.error.issues[0]?.path.join('.') ?? '',
          });
        }
      });
      return kept;
    }),
  );

/**
 * Reads `value` with `schema`, with what its lists left out as the lines the client reports for `service` (its
 * endpoint): the record's id, else its place, and the field that could not be read; never a value.
 */
export function readAnswer<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  service: string,
): { result: z.core.util.SafeParseResult<z.output<S>>; dropped: string[] } {
  const outer = dropped;
  const mine: Dropped[] = (dropped = []);
  try {
    const result = schema.safeParse(value) as z.core.util.SafeParseResult<z.output<S>>;
    return {
      result,
      dropped: mine.map(
        ({ index, id, path }) =>
          `${service}: left out a record it cannot read (${id === undefined ? `#${index}` : `id ${id}`}, field ${path || '(record)'})`,
      ),
    };
  } finally {
    dropped = outer;
  }
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
    obj({ data: z.array(z.unknown()), meta: opt(pageMeta) }),
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
