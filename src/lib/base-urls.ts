/**
 * Where the API and the keys host are when the page does not say: next to the bundle. Dependency-free, so that the
 * loader (which sends the first start-up requests) and the configuration resolve them the same way.
 */

/** The origin of the bundle's URL, or the page's when that does not parse. */
export function bundleOrigin(base: string): string {
  try {
    return new URL(base).origin;
  } catch {
    return typeof location === 'undefined' ? 'http://localhost' : location.origin;
  }
}

/** A configured base URL without its trailing slashes, or `fallback` when none is given. */
export function baseUrl(value: string | null | undefined, fallback: string): string {
  return (value?.trim() || fallback).replace(/\/+$/, '');
}
