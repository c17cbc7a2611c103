/**
 * The ports the end-to-end run reserves: the reference server and its cross-origin "CMS host". E2E_PORT moves both
 * (the host takes the next port), so two checkouts can run their suites side by side.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8090);
export const E2E_HOST_PORT = E2E_PORT + 1;
