/**
 * The Stripe double's events and their delivery (dev/stripe.ts): every change records an event, which is sent to
 * each webhook endpoint as Stripe sends it: a JSON POST signed in `Stripe-Signature` with the endpoint's secret
 * (`stripe.webhooks.generateTestHeaderString`, the SDK's own signing), one after another per endpoint, tried again
 * later when the endpoint answers 5xx or cannot be reached (`retryDelaysMs`). Tests can hold deliveries, lose the
 * next event of a kind, read what was delivered and wait until nothing is on its way.
 */
import Stripe from 'stripe';
import { newId, type StripeEvent } from './stripe-objects.js';

/** The API version the events say they are of (the SDK's). */
const API_VERSION = '2026-10-28.endive';
/** The events kept (for listing and resending). */
const KEPT_EVENTS = 5000;

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

/** One delivery attempt of an event to an endpoint. */
export interface Delivery {
  event: string;
  type: string;
  url: string;
  /** The endpoint's answer; 0 when it could not be reached; -1 for an event lost on purpose (`loseNext`). */
  status: number;
  attempt: number;
}

export class Webhooks {
  readonly endpoints: WebhookEndpoint[] = [];
  readonly events: StripeEvent[] = [];
  readonly deliveries: Delivery[] = [];
  private held = false;
  /** Events held (`hold`), sent to the endpoints there are when they are released. */
  private readonly waiting: StripeEvent[] = [];
  private readonly losing: Array<(event: StripeEvent) => boolean> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private chain = new Map<string, Promise<void>>();

  constructor(
    /** The double's clock, ms (the signatures' time). */
    private readonly now: () => number,
    /** Delays of the attempts after a failed one (5xx or unreachable). */
    private readonly retryDelaysMs: readonly number[],
  ) {}

  /** Records an event and sends it to every endpoint. */
  emit(type: string, object: unknown, previous?: Record<string, unknown>): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      type,
      created: Math.floor(this.now() / 1000),
      api_version: API_VERSION,
      livemode: false,
      pending_webhooks: this.endpoints.length,
      request: { id: null, idempotency_key: null },
      // A snapshot: the object as it is at this moment, whatever happens to it later.
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: structuredClone(previous) } : {}),
      },
    };
    this.events.push(event);
    if (this.events.length > KEPT_EVENTS) this.events.shift();
    const lose = this.losing.findIndex((matches) => matches(event));
    if (lose >= 0) {
      this.losing.splice(lose, 1);
      for (const endpoint of this.endpoints)
        this.deliveries.push({ event: event.id, type, url: endpoint.url, status: -1, attempt: 0 });
      return event;
    }
    if (this.held) this.waiting.push(event);
    else for (const endpoint of this.endpoints) this.queue(event, endpoint, 1);
    return event;
  }

  /** Sends an event (a recorded one again, or one made up by a test) to the endpoints now, as is. */
  resend(event: StripeEvent): void {
    for (const endpoint of this.endpoints) this.queue(event, endpoint, 1);
  }

  /** Holds every new event until `release()` (a server that is down, a network that lost them for a while). */
  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    for (const event of this.waiting.splice(0)) for (const endpoint of this.endpoints) this.queue(event, endpoint, 1);
  }

  /** The next event that `matches` (by type, say) is never delivered: a webhook lost on the way. */
  loseNext(matches: (event: StripeEvent) => boolean): void {
    this.losing.push(matches);
  }

  /** Resolves once no delivery is on its way or waiting for a retry (held ones aside). */
  idle(): Promise<void> {
    if (this.inFlight === 0 && this.timers.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.settle();
  }

  private settle(): void {
    if (this.inFlight > 0 || this.timers.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private queue(event: StripeEvent, endpoint: WebhookEndpoint, attempt: number): void {
    if (this.closed) return;
    // One after another per endpoint, in the order they happened (a retry goes to the back).
    this.inFlight++;
    const previous = this.chain.get(endpoint.url) ?? Promise.resolve();
    const next = previous
      .then(() => this.deliver(event, endpoint, attempt))
      .finally(() => {
        this.inFlight--;
        this.settle();
      });
    this.chain.set(endpoint.url, next);
  }

  private async deliver(event: StripeEvent, endpoint: WebhookEndpoint, attempt: number): Promise<void> {
    if (this.closed) return;
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: endpoint.secret,
      timestamp: Math.floor(this.now() / 1000),
    });
    let status = 0;
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': signature,
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
        signal: AbortSignal.timeout(20_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 0;
    }
    this.deliveries.push({ event: event.id, type: event.type, url: endpoint.url, status, attempt });
    const retry = status === 0 || status >= 500;
    const delay = this.retryDelaysMs[attempt - 1];
    if (!retry || delay === undefined || this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.queue(event, endpoint, attempt + 1);
      this.settle();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
