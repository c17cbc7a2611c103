/**
 * What the Google and Facebook providers share of `openid-client`: one client configuration per channel's client
 * id (made once, kept), speaking plain http only to a loopback host (config.ts allows no other), with a time limit
 * on every call; and reading a claim or a Graph field as text.
 */
import * as client from 'openid-client';
import { isLoopbackUrl } from './provider.js';

/** How long a call to a provider may take, in seconds. */
export const TIMEOUT_SECONDS = 10;

/** True when every URL is on loopback over http (the tests' providers): openid-client must be told to allow it. */
export const insecureLoopback = (...urls: string[]) =>
  urls.some((url) => new URL(url).protocol === 'http:' && isLoopbackUrl(new URL(url)));

/**
 * The configurations of one provider by client id: `server` (its metadata) and the server's `secret`, which goes in
 * the token request's body (client_secret_post); `prepare` adds what the provider needs more (signature checks).
 */
export function clientConfigs(
  server: () => Promise<client.ServerMetadata> | client.ServerMetadata,
  secret: string,
  insecure: boolean,
  prepare: (config: client.Configuration) => void = () => undefined,
): (clientId: string) => Promise<client.Configuration> {
  const configs = new Map<string, client.Configuration>();
  return async (clientId) => {
    const known = configs.get(clientId);
    if (known) return known;
    const config = new client.Configuration(await server(), clientId, secret);
    config.timeout = TIMEOUT_SECONDS;
    if (insecure) client.allowInsecureRequests(config);
    prepare(config);
    configs.set(clientId, config);
    return config;
  };
}

/** A claim or a field as trimmed text, or null. */
export const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
