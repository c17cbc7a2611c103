/**
 * What the Google and Facebook providers share of `openid-client`: one client configuration per channel's client
 * id and secret (made once, kept), speaking plain http only to a loopback host (config.ts allows no other), with a time limit
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
 * The configurations of one provider by client id and secret (a channel's own, or the server's): `server` (its
 * metadata); the secret goes in the token request's body (client_secret_post); `prepare` adds what the provider
 * needs more (signature checks). A secret that changes makes a new configuration.
 */
export function clientConfigs(
  server: () => Promise<client.ServerMetadata> | client.ServerMetadata,
  insecure: boolean,
  prepare: (config: client.Configuration) => void = () => undefined,
): (clientId: string, secret: string) => Promise<client.Configuration> {
  const configs = new Map<string, client.Configuration>();
  return async (clientId, secret) => {
    const name = `${clientId}\n${secret}`;
    const known = configs.get(name);
    if (known) return known;
    const config = new client.Configuration(await server(), clientId, secret);
    config.timeout = TIMEOUT_SECONDS;
    if (insecure) client.allowInsecureRequests(config);
    prepare(config);
    // One per client id: the configuration of a secret replaced is forgotten.
    for (const other of configs.keys()) if (other.startsWith(`${clientId}\n`)) configs.delete(other);
    configs.set(name, config);
    return config;
  };
}

/** A channel's client secret at a provider: its own, else the server's (undefined: none, sign-in is refused). */
export type SecretOf = (channelId: number) => string | undefined;

/** Refused before any call: the channel has no client secret at this provider (it was removed meanwhile). */
export const NO_SECRET = 'no client secret for this channel';

/** A claim or a field as trimmed text, or null. */
export const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
