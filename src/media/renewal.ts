/**
 * When a stream refused with 401 or 403 gets a freshly signed URL rather than an error: the policy playback
 * (src/media/playback.ts) asks through its owner, with the times it counts by.
 */
import { env } from '../lib/env.js';

/** Age under which a refused stream URL that never played is taken at its word (the viewer has no access). */
export const URL_FRESH_MS = 60_000;
/** Time after a renewal before another refusal may renew again: one fresh URL per refusal episode. */
export const RENEW_AGAIN_MS = 60_000;

/** A refusal (401/403) of the stream, as playback reports it to its owner. */
export interface Refusal {
  status: number;
  /** Whether this URL had its first frame (then the refusal is a stale grant, not a lack of access). */
  played: boolean;
  /** Where a non-live stream stopped (seconds), to start the renewed one there. */
  at?: number | undefined;
}

/** When a refused stream URL gets a freshly signed one (see `renewalPolicy`). */
export interface RenewalPolicy {
  /** A new stream URL was obtained now. */
  issued(): void;
  /** Whether this refusal is worth a fresh URL; true also spends the allowance. */
  take(refusal: Refusal): boolean;
}

/**
 * The rule for renewing refused stream URLs (signed URLs are bound to the client address and expire after 2 h).
 * A refusal is renewed when the URL played (it worked, so its grant went stale) or is older than URL_FRESH_MS
 * (the page waited long before Play), and no renewal happened in the last RENEW_AGAIN_MS: a fresh URL refused
 * again at once is a real refusal, and a stream that is refused over and over cannot loop on reloads.
 */
export function renewalPolicy(now: () => number = () => env().now()): RenewalPolicy {
  let issuedAt: number | undefined;
  let renewedAt: number | undefined;
  return {
    issued() {
      issuedAt = now();
    },
    take(refusal) {
      const at = now();
      const stale = refusal.played || issuedAt === undefined || at - issuedAt >= URL_FRESH_MS;
      if (!stale || (renewedAt !== undefined && at - renewedAt < RENEW_AGAIN_MS)) return false;
      renewedAt = at;
      return true;
    },
  };
}
