/**
 * Stripe's request parameters as the Stripe double reads them (dev/stripe.ts): form bodies and query strings in
 * Stripe's bracket notation (`metadata[order_id]=1`, `expand[0]=latest_invoice`, `items[0][price]=price_…`) made
 * into nested values, and typed readers of them with Stripe's messages for a missing or bad one.
 */
import { invalid, type Metadata } from './stripe-objects.js';

/** A parameter's value: text, or nested parameters (arrays are objects keyed 0, 1, …). */
export type Param = string | Params;
export interface Params {
  [name: string]: Param;
}

/** `a[b][0]` → ['a', 'b', '0']. */
function pathOf(key: string): string[] {
  const head = /^[^[]*/.exec(key)![0];
  const rest = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
  return [head, ...rest];
}

/** Form or query text (`a[b]=1&c[]=2`) as nested parameters. */
export function parseParams(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = pathOf(key);
    let node: Params = root;
    path.forEach((part, i) => {
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (i === path.length - 1) {
        node[name] = value;
        return;
      }
      const next = node[name];
      node = typeof next === 'object' ? next : (node[name] = {});
    });
  }
  return root;
}

/** A text parameter (undefined when absent or blank). */
export function text(params: Params, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A required text parameter. */
export function required(params: Params, name: string, shown = name): string {
  const value = text(params, name);
  if (value === undefined) throw invalid(`Missing required param: ${shown}.`, shown, 'parameter_missing');
  return value;
}

/** A whole-number parameter. */
export function integer(params: Params, name: string): number | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, name, 'parameter_invalid_integer');
  return Number(value);
}

/** A boolean parameter (`true`/`false`). */
export function flag(params: Params, name: string): boolean | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, name);
  return value === 'true';
}

/** A nested parameter (`{}` when absent). */
export function nested(params: Params, name: string): Params {
  const value = params[name];
  return typeof value === 'object' ? value : {};
}

/** An array parameter's texts (`expand[0]=a&expand[1]=b`). */
export function texts(params: Params, name: string): string[] {
  return Object.values(nested(params, name)).filter((v): v is string => typeof v === 'string');
}

/** `metadata[…]`: its texts. */
export function metadataOf(params: Params): Metadata {
  const found: Metadata = {};
  for (const [key, value] of Object.entries(nested(params, 'metadata')))
    if (typeof value === 'string') found[key] = value;
  return found;
}
