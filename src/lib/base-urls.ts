/**
 * Where the API and the keys host are when the page does not say: next to the bundle. Dependency-free, so that the
 * loader (which sends the first start-up requests) and the configuration resolve them the same way. The page's
 * address is the caller's to pass: this module reads nothing of the page.
 */

/** The origin of the bundle's URL, or `fallback` (the caller's page origin) when that does not parse. */
export function bundleOrigin(base: string, fallback: string): string {
  try {
    return new URL(base).origin;
  } catch {
    return fallback;
  }
}

/** A configured base URL without its trailing slashes, or `fallback` when none is given. */
export function baseUrl(value: string | null | undefined, fallback: string): string {
  return (value?.trim() || fallback).replace(/\/+$/, '');
}
