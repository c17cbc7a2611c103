/** The building blocks of the contract's schemas: lenient ids and flags, strings, and the `{ data }` envelope. */
import * as z from 'zod/mini';

/** A number that may arrive as a numeric string (some channel back ends send ids as strings). */
export const id = z.pipe(
  z.union([z.number(), z.string().check(z.regex(/^\d+$/))]),
  z.transform((v) => Number(v)),
);
/** A flag that may arrive as 0/1, "0"/"1" or a boolean (e.g. auth.remote_auth is 0 or 1, treated as boolean). */
export const flag = z.pipe(
  z.union([z.boolean(), z.number(), z.string()]),
  z.transform((v) => v === true || v === 1 || v === '1' || v === 'true'),
);
/** A string. */
export const text = z.string();
/** A string that may be absent or null. */
export const maybeText = z.optional(z.nullable(z.string()));

/** Wraps a payload schema in the `{ data }` envelope. */
export const envelope = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

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
