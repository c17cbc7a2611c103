/**
 * The API request tracker: every API call the client makes (never the analytics calls themselves, which do not go
 * through the client) is noted with its URL (no keys, tokens or personal data), status, message, answer length and
 * total time, and sent as `api_request` events in batches, never one request per call: every
 * API_TRACKER_FLUSH_MS, at once when API_TRACKER_BATCH calls are waiting, and when the page is left or put in the
 * back/forward cache (`pagehide`, by `sendBeacon`, which outlives the page). All elements of a page share one tracker.
 */
import { API_TRACKER_BATCH, API_TRACKER_FLUSH_MS, type ApiRequestEntry } from '../../api/analytics-schemas.js';
import { env } from '../../lib/env.js';
import {
  commonFields,
  cut,
  datalakeSession,
  datalakeTarget,
  postDatalake,
  storedSession,
  viewerFields,
} from './datalake.js';
import { analyticsConsent, whenAnalyticsMay } from './gate.js';
import { $settings } from '../session-state.js';

let waiting: ApiRequestEntry[] = [];
let timer: unknown;
let timerClock: ReturnType<typeof env> | undefined;
/** The page-hide listener, held only while calls wait. */
let unlisten: (() => void) | undefined;
/** A flush asked of the gate and not run yet: later calls join it rather than ask again. */
let flushAsked = false;

/** Notes one API call. */
export function trackApiCall(entry: ApiRequestEntry): void {
  if (analyticsConsent() === 'refused') return;
  // Once the settings are in, a channel without an analytics key (or a localhost page) collects nothing.
  if ($settings.get() && !datalakeTarget()) return;
  waiting.push({ ...entry, url: cut(entry.url) ?? '', message: cut(entry.message) ?? null });
  // Held for consent or a first frame: the newest calls are kept, at most two batches.
  if (waiting.length > 2 * API_TRACKER_BATCH) waiting.splice(0, waiting.length - 2 * API_TRACKER_BATCH);
  listen();
  if (waiting.length >= API_TRACKER_BATCH) flushApiCalls();
  else startTimer();
}

/** The interval's next flush, unless one is already due. */
function startTimer(): void {
  if (timer !== undefined) return;
  timerClock = env();
  timer = timerClock.setTimeout(() => {
    timer = undefined;
    flushApiCalls();
  }, API_TRACKER_FLUSH_MS);
}

/** Sends what is waiting, once analytics may; one request per batch. */
export function flushApiCalls(): void {
  if (timer !== undefined) timerClock?.clearTimeout(timer);
  timer = undefined;
  if (flushAsked || waiting.length === 0) return;
  flushAsked = true;
  whenAnalyticsMay(() => {
    flushAsked = false;
    const target = datalakeTarget();
    if (!target) {
      // No analytics key, or a localhost page: nothing to send, ever, for this page.
      waiting = [];
      quiet();
      return;
    }
    void datalakeSession(target).then((session) => {
      if (!session) return;
      // Taken now, not when the flush was asked: calls made meanwhile go in the same request. One request per
      // flush: what is left past a batch waits for the next one.
      const batch = waiting.splice(0, API_TRACKER_BATCH);
      quiet();
      if (batch.length === 0) return;
      void postDatalake(target, 'event/', {
        ...commonFields(target),
        ...viewerFields(session),
        event: 'api_request',
        requests: batch,
      });
      if (waiting.length >= API_TRACKER_BATCH) flushApiCalls();
      else if (waiting.length > 0) startTimer();
    });
  });
}

/** The page is being left: what is waiting goes now, by beacon, if a session exists already. */
function flushLeaving(): void {
  // A player still starting holds nothing back now: the page is going away.
  if (waiting.length === 0 || analyticsConsent() !== 'granted') return;
  const target = datalakeTarget();
  const session = target && storedSession(target);
  if (!target || !session) return;
  if (timer !== undefined) timerClock?.clearTimeout(timer);
  timer = undefined;
  while (waiting.length > 0) {
    const batch = waiting.splice(0, API_TRACKER_BATCH);
    void postDatalake(
      target,
      'event/',
      { ...commonFields(target), ...viewerFields(session), event: 'api_request', requests: batch },
      true,
    );
  }
  quiet();
}

function listen(): void {
  if (unlisten) return;
  unlisten = env().onPageHide(flushLeaving);
}

/** Nothing waits any more: the page's listeners go. */
function quiet(): void {
  if (waiting.length > 0) return;
  unlisten?.();
  unlisten = undefined;
}

/** What is waiting (tests). */
export function waitingApiCalls(): readonly ApiRequestEntry[] {
  return waiting;
}

/** Forgets waiting calls and the timer (tests). */
export function resetTracker(): void {
  if (timer !== undefined) timerClock?.clearTimeout(timer);
  timer = undefined;
  waiting = [];
  flushAsked = false;
  quiet();
}
