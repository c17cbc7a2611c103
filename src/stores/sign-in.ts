/**
 * Signing in and out, and the signed-in user's counts: what the profile, the checkout, the site and the player do to
 * the shared session (session.ts). Apart from it because a page with a schedule alone never signs anyone in: it
 * only follows `$user`, and does not carry this code.
 */
import { channelApi, type User } from '../api/channel-schemas.js';
import { loginEvent, type LoginMethod } from './analytics/port.js';
import {
  $profileError,
  $token,
  $user,
  adoptToken,
  currentApiKey,
  dropKeys,
  getClient,
  retryProfile,
} from './session.js';

/** Signs in with a token the API issued: stores it, loads the profile; every element follows `$user`. */
export async function signInWithToken(token: string): Promise<void> {
  adoptToken(token);
  await retryProfile();
}

/**
 * Signs in with the answer of login, registration or social sign-in, which carries the user already: the token
 * is stored and `$user` set at once (no profile call); every element follows `$user`, other tabs the storage.
 * The sign-in's `method` goes to analytics (`login`).
 */
export function signIn(session: { token: string; user: User }, method?: LoginMethod): void {
  adoptToken(session.token);
  $profileError.set(undefined);
  $user.set(session.user);
  if (method) loginEvent(method);
}

/**
 * Reloads the signed-in user's capabilities and feature counts (`GET user/access`) after something that counts
 * (a download, a clip). Best effort: stale counts are harmless.
 */
export async function reloadUserAccess(): Promise<void> {
  try {
    const access = await getClient().call(channelApi.userAccess, { cache: false });
    const user = $user.get();
    if (user) {
      $user.set({
        ...user,
        capabilities: access.data.capabilities,
        featureCount: access.data.featureCount ?? user.featureCount,
      });
    }
  } catch {
    // The action itself worked; stale counts are harmless.
  }
}

/**
 * Signs out: `POST auth/logout` (best effort; skipped with `remote: false`, when the server has already forgotten
 * the token, e.g. after the account was deleted), then the user and token are cleared, the stored api key is
 * dropped and a fresh anonymous key fetched. Resolves once that key is in (or could not be had: the next call
 * fetches one then).
 */
export async function logout(options: { remote?: boolean } = {}): Promise<void> {
  if (options.remote !== false && $token.get()) {
    try {
      await getClient().call(channelApi.logout, { cache: false, retries: 0, skipLog: [401] });
    } catch {
      // Best effort: the token is forgotten here whatever the server said.
    }
  }
  dropKeys('api_key');
  try {
    await currentApiKey();
  } catch {
    // Offline: the next keyed call fetches the key.
  }
}
