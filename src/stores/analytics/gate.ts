/**
 * When analytics may run: the page's consent (or no consent mode), no player on its way to a first frame, and the
 * main thread idle. Everything the analytics layer sends or loads (datalake calls, the tag manager's script and
 * events, Mux monitoring) goes through `whenAnalyticsMay`, so none of it competes with a first frame, and in
 * consent mode none of it happens before `channelElements.consent(true)`. A refusal drops what waits.
 */
import { consentRecord, onConsent } from '../../lib/consent.js';
import { env } from '../../lib/env.js';
import { $config } from '../config.js';

/** A player may hold analytics this long while it starts (a first frame that never comes cannot hold them longer). */
export const HOLD_MAX_MS = 15_000;
/** Work waiting for consent or a first frame is bounded: past this, the oldest goes. */
export const WAITING_MAX = 200;
/** The longest wait for an idle moment before waiting work runs anyway. */
const IDLE_TIMEOUT_MS = 2_000;
/**
 * After the last player's release, analytics wait this much longer: a player reports its first frame when the
 * browser says it has one, a frame or two before the screen shows it, and the decoder is still busy just after.
 */
export const AFTER_RELEASE_MS = 500;

/** Where the page's consent stands for analytics. */
export type ConsentState = 'granted' | 'pending' | 'refused';

let holds = 0;
/** Until when (the environment's clock) analytics keep quiet after the last release. */
let quietUntil = 0;
let waiting: (() => void)[] = [];
let idleAsked = false;
const followers = new Set<(state: ConsentState) => void>();

/**
 * The consent state: refused once the page said no (in any mode), granted once it said yes or when it is not in
 * consent mode, pending otherwise.
 */
export function analyticsConsent(): ConsentState {
  const granted = consentRecord().granted;
  if (granted === false) return 'refused';
  if (granted === true || !$config.get()?.consentRequired) return 'granted';
  return 'pending';
}

/** Follows changes of the consent state (a refusal stops running monitors); returns the removal. */
export function onAnalyticsConsent(listener: (state: ConsentState) => void): () => void {
  followers.add(listener);
  return () => followers.delete(listener);
}

onConsent(() => {
  const state = analyticsConsent();
  if (state === 'refused') waiting = [];
  for (const listener of [...followers]) {
    try {
      listener(state);
    } catch {
      // A follower's failure must not keep the decision from the others.
    }
  }
  schedule();
});

/**
 * Holds analytics while a player starts; returns the release (called at its first frame, when it shows something
 * else than a stream, or when it goes). Released by itself after HOLD_MAX_MS.
 */
export function holdAnalytics(): () => void {
  holds++;
  let released = false;
  const clock = env();
  const release = () => {
    if (released) return;
    released = true;
    clock.clearTimeout(timer);
    holds--;
    if (holds === 0) {
      quietUntil = clock.now() + AFTER_RELEASE_MS;
      clock.setTimeout(schedule, AFTER_RELEASE_MS);
    }
  };
  const timer = clock.setTimeout(release, HOLD_MAX_MS);
  return release;
}

/** Whether analytics may run this moment (consent, and no player starting). */
export function analyticsFree(): boolean {
  return holds === 0 && env().now() >= quietUntil && analyticsConsent() === 'granted';
}

/** Runs `task` once analytics may (see the module's comment); dropped when the page refuses. Never throws. */
export function whenAnalyticsMay(task: () => void): void {
  if (analyticsConsent() === 'refused') return;
  waiting.push(task);
  if (waiting.length > WAITING_MAX) waiting.shift();
  schedule();
}

function schedule(): void {
  if (idleAsked || waiting.length === 0 || !analyticsFree()) return;
  idleAsked = true;
  env().whenIdle(() => {
    idleAsked = false;
    // A player may have started meanwhile, or consent been withdrawn: its release or a new consent schedules again.
    if (!analyticsFree()) return;
    const tasks = waiting;
    waiting = [];
    for (const task of tasks) {
      try {
        task();
      } catch {
        // Analytics never break what the viewer is doing.
      }
    }
  }, IDLE_TIMEOUT_MS);
}

/** Forgets holds and waiting work (tests). */
export function resetAnalyticsGate(): void {
  holds = 0;
  quietUntil = 0;
  waiting = [];
  idleAsked = false;
}
