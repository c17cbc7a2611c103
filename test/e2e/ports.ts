/**
 * The ports the end-to-end run reserves: the reference server, its cross-origin "CMS host", the second channel API and
 * the host of that API's pages. E2E_PORT moves them all (the host takes the next port, the second API the one after,
 * its host the next), so two checkouts can run their suites side by side.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8090);
export const E2E_HOST_PORT = E2E_PORT + 1;
/** The second channel API (test/e2e/laravel-api.ts), built to the spec with a Laravel back end's habits. */
export const E2E_LARAVEL_PORT = E2E_PORT + 2;
/** The host pages of the journeys against the second API: an origin of their own, so every call is cross-origin. */
export const E2E_LARAVEL_HOST_PORT = E2E_PORT + 3;
