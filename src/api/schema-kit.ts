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
