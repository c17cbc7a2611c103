/**
 * The server's metrics in Prometheus's text format (prom-client), one registry per server: requests by route,
 * method and status (routes are the contract's endpoint names and a few fixed kinds: bounded labels, never a path),
 * 429 refusals, the database's connections, the clip queue, pending and failed emails, how late settlement is, and
 * the process's defaults (CPU, memory, event loop lag, handles). What it reads from the database it reads when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolState } from '../storage/db.js';

/** What the gauges read when scraped. */
export interface MetricSources {
  /** The database's connections (undefined before it is open). */
  pool(): PoolState | undefined;
  /** Clip jobs by state: waiting for a process, and being cut. */
  clipQueue(): Promise<{ queued: number; processing: number }>;
  /** Emails accepted and not handed to the mail service yet. */
  pendingEmails(): Promise<number>;
  /** Seconds the oldest payment due is past its moment (0 when none is). */
  settlementLag(): Promise<number>;
}

export interface ServerMetrics {
  registry: Registry;
  /** Records one answered request. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** The database and queues become readable (once the server has them). */
  watch(sources: MetricSources): void;
  /** Counts an email this process failed: refused by the mail service for good, or not delivered within 24 h. */
  emailFailed(reason: 'rejected' | 'expired'): void;
}

/** The methods a label may name; any other counts as OTHER (a client can send any token). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'channel_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route (the contract endpoint, or a fixed kind), method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'channel_rate_limit_refusals_total',
    help: 'Requests refused by a limit (429), by route.',
    labelNames: ['route'],
    registers: [registry],
  });
  let sources: MetricSources | undefined;
  new Gauge({
    name: 'channel_db_pool_connections',
    help: "The database's connections: total, idle, and statements waiting for one.",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const state = sources?.pool();
      if (!state) return;
      for (const [name, value] of Object.entries(state)) this.set({ state: name }, value);
    },
  });
  new Gauge({
    name: 'channel_clip_jobs',
    help: 'Clip jobs queued (waiting for a process) and processing (being cut).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      if (!sources) return;
      const queue = await sources.clipQueue();
      this.set({ state: 'queued' }, queue.queued);
      this.set({ state: 'processing' }, queue.processing);
    },
  });
  new Gauge({
    name: 'channel_emails_pending',
    help: 'Emails accepted and not yet handed to the mail service.',
    registers: [registry],
    async collect() {
      if (sources) this.set(await sources.pendingEmails());
    },
  });
  const emailsFailed = new Counter({
    name: 'channel_emails_failed_total',
    help: 'Emails given up on: refused by the mail service for good (rejected) or not delivered within 24 h (expired).',
    labelNames: ['reason'],
    registers: [registry],
  });
  new Gauge({
    name: 'channel_settlement_lag_seconds',
    help: 'How far past its moment the oldest payment due to settle is (0 when none is).',
    registers: [registry],
    async collect() {
      if (sources) this.set(await sources.settlementLag());
    },
  });
  return {
    registry,
    request(route, method, status, seconds) {
      const labels = { route, method: METHODS.has(method) ? method : 'OTHER', status: String(status) };
      duration.observe(labels, seconds);
      if (status === 429) refusals.inc({ route });
    },
    watch(next) {
      sources = next;
    },
    emailFailed(reason) {
      emailsFailed.inc({ reason });
    },
  };
}
