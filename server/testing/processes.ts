/**
 * Shared by the tests that run the server as real processes (crash.test.ts, multiprocess.test.ts): a
 * `node --import tsx server/main.ts --dev` child on free ports and a data folder of the test's, which a test can
 * kill (SIGKILL: no clean-up runs, as in a crash) and start again on the same data, plus the API calls those tests
 * make through it. A production one starts on the demo imported by the command line (`channel-server import`), as
 * an operator would load a channel. Not a test file itself (`npm run test:server` runs *.test.ts).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { endpoints, type Event } from '../../src/api/contract.js';
import { DEV_SECRET_HEADER } from '../app/exposure.js';
import { request, type Answer } from './harness.js';

/** The repository root (this file is server/testing/processes.ts). */
const ROOT = join(import.meta.dirname, '..', '..');

/** A first start may make the test media (10 to 15 s) and a database template (10 to 40 s), on a busy machine. */
const START_TIMEOUT_MS = 180_000;
/** What main.ts prints once startServer is done, per mode. */
const READY_LINE = { dev: 'Channel elements demo:', production: 'Channel API (production mode):' } as const;
/** How much of a process's output is kept for failure messages. */
const OUTPUT_KEPT = 20_000;

/** Every child still running: killed when the test process ends, however it ends. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A port nobody listens on at this moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it answers something truthy; fails with `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | false | null | undefined>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** How a ServerProcess runs: its data folder and its environment (DATABASE_URL, limits, CLIPS_DIR...). */
export interface ProcessOptions {
  dataDir: string;
  /** Dev mode (`--dev`, the default) or production mode (no demo, no dev secret, no `/__dev/`). */
  mode?: 'dev' | 'production';
  /** Added to this process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /**
   * Channel files the command line imports (`channel-server import FILE`, into the same database) before the first
   * start: a production start leaves a new database empty. Default: the demo's (server/fixtures/demo.json) in
   * production mode, none in dev mode (which seeds it). `[]` for a database that has its channel already.
   */
  imports?: string[];
}

/** The demo channel's file: what a production ServerProcess imports by default. */
export const DEMO_FILE = join(ROOT, 'server', 'fixtures', 'demo.json');

/** An order as GET /__dev/orders lists it (the fields these tests read). */
export interface DevOrder {
  id: number;
  status: string;
  transactions: Array<{ status: string; amount: number }>;
}

/** One server process: started, killed and started again on the same data folder. */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private log = '';
  /** What the current (or last) start printed, and how it exited if it did. */
  private printed = '';
  private exitCode: number | null = null;
  /** Whether the channel files (ProcessOptions.imports) are in the database already. */
  private imported = false;
  /** Resolves once the current start's output is all read (its pipes closed). */
  private drained: Promise<void> = Promise.resolve();
  /** The API origin of the current start (`http://localhost:PORT`). */
  base = '';
  /** The operations listener's origin of the current start (health, readiness, metrics). */
  operations = '';
  /** The operator API listener's origin of the current start (`http://127.0.0.1:PORT`). */
  operator = '';
  /** Everything the process wrote to its standard output, every start (the log lines). */
  stdout = '';
  /** The dev secret of the current start (DATA_DIR/dev-secret). */
  devSecret = '';
  /** A `demo` api key (any process's key is valid in every process: they are rows). */
  key = '';
  /** Fixture keys of the demo events, to their ids. */
  events: Record<string, number> = {};

  constructor(
    /** A name for messages ('A', 'B'). */
    readonly name: string,
    private readonly options: ProcessOptions,
  ) {}

  /** The process id of the current start (its clip leases name it). */
  get pid(): number {
    return this.child?.pid ?? 0;
  }

  /** The end of what the process printed, for failure messages. */
  output(): string {
    return `--- output of server ${this.name} ---\n${this.log.slice(-OUTPUT_KEPT)}`;
  }

  private get dev(): boolean {
    return (this.options.mode ?? 'dev') === 'dev';
  }

  /**
   * Starts the process on free ports and waits until it answers; then reads an api key, and in dev mode its dev
   * secret and the demo events' ids.
   */
  async start(): Promise<void> {
    assert.equal(this.child, undefined, `server ${this.name} is running already`);
    if (!this.imported) {
      for (const file of this.options.imports ?? (this.dev ? [] : [DEMO_FILE])) await this.command('import', file);
      this.imported = true;
    }
    await this.spawnOnFreePorts();
    if (this.dev) this.devSecret = readFileSync(join(this.options.dataDir, 'dev-secret'), 'utf8').trim();
    const key = await this.post('/api/get_api_key', { channel_key: 'demo' });
    assert.equal(key.status, 200, JSON.stringify(key.body));
    this.key = String(key.body.data.api_key);
    if (this.dev) this.events = (await this.call('/__dev/events?channel_key=demo')).body.data;
  }

  /** A start that must be refused: answers its exit code and what it printed (fails if it starts instead). */
  async refusedStart(): Promise<{ code: number | null; printed: string }> {
    assert.equal(this.child, undefined, `server ${this.name} is running already`);
    try {
      await this.spawnOnFreePorts();
    } catch (error) {
      if (this.child || !/exited while starting/.test(String(error))) throw error;
      // Its last lines may still be in the pipe when it has exited.
      await Promise.race([this.drained, sleep(5000)]);
      return { code: this.exitCode, printed: this.printed };
    }
    await this.kill();
    return assert.fail(`server ${this.name} started where it should have been refused\n${this.output()}`);
  }

  private async spawnOnFreePorts(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const [port, hostPort] = [await freePort(), await freePort()];
      try {
        await this.spawn(port, hostPort);
        return;
      } catch (error) {
        // Another program may take a port between our look and the server's listen: try others, once or twice.
        if (!/Port in use/.test(this.printed) || attempt >= 3) throw error;
      }
    }
  }

  /** The process's environment: the test's, DATA_DIR and `more`. */
  private environment(more: Record<string, string> = {}): Record<string, string> {
    const env: Record<string, string | undefined> = {
      ...process.env,
      // The test runner's own variables are not the server's business.
      NODE_TEST_CONTEXT: undefined,
      DATABASE_URL: undefined,
      DATABASE_TEMPLATES: undefined,
      CHANNEL_DEV: undefined,
      // The operator API on a free port (main.ts prints it: `operator`).
      OPERATOR_PORT: '0',
      ...this.options.env,
      ...more,
      DATA_DIR: this.options.dataDir,
    };
    for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
    return env as Record<string, string>;
  }

  /**
   * Runs `channel-server ...args` (the command line, server/cli/) on this process's database, as an operator
   * would; fails the test unless it exits 0. Answers what it printed.
   */
  async command(...args: string[]): Promise<string> {
    const child = spawn(process.execPath, ['server/bin/channel-server.mjs', ...args], {
      cwd: ROOT,
      env: this.environment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    this.log += `\n[channel-server ${args.join(' ')}: exit ${code}]\n${printed}`;
    assert.equal(code, 0, `channel-server ${args.join(' ')} failed for server ${this.name}:\n${printed}`);
    return printed;
  }

  private async spawn(port: number, hostPort: number): Promise<void> {
    const env = this.environment({
      PORT: String(port),
      HOST_PORT: String(hostPort),
      // The operations listener on a free port (main.ts prints it: `operations`).
      METRICS_PORT: '0',
    });
    const args = ['--import', 'tsx', 'server/main.ts', ...(this.dev ? ['--dev'] : [])];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.log += `\n[start on port ${port}]\n`;
    // What this start printed until it said it was ready.
    this.printed = '';
    this.exitCode = null;
    let ready = false;
    const readyLine = READY_LINE[this.options.mode ?? 'dev'];
    const keep = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString()).slice(-2 * OUTPUT_KEPT);
      if (ready) return;
      this.printed += chunk.toString();
      ready = this.printed.includes(readyLine);
    };
    child.stdout!.on('data', keep);
    child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
    });
    child.stderr!.on('data', keep);
    live.add(child);
    this.child = child;
    let gone = false;
    this.drained = new Promise((resolve) => child.on('close', () => resolve()));
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        gone = true;
        this.exitCode = code;
        live.delete(child);
        if (this.child === child) this.child = undefined;
        this.log += `\n[exited: ${signal ?? code}]\n`;
        resolve();
      });
    });
    this.base = `http://localhost:${port}`;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (gone) throw new Error(`server ${this.name} exited while starting\n${this.output()}`);
      // It listens before it has written its dev secret and its settings: ready is when main.ts says so. Only then
      // one request: every path counts against the request limit, shared by both processes of a pair, and a slow
      // start polled over HTTP would spend a low limit (the limit tests' 20) before the tests begin.
      if (ready) {
        this.operations =
          /Operations \(health, readiness, metrics\): (http:\/\/[^/\s]+)\//.exec(this.printed)?.[1] ?? '';
        this.operator = /Operator API: (http:\/\/[^/\s]+)\//.exec(this.printed)?.[1] ?? '';
        const status = await fetch(`${this.base}/api/settings?channel_key=demo`)
          .then((res) => res.status)
          .catch(() => 0);
        if (status === 200) return;
      }
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(`server ${this.name} did not answer within ${START_TIMEOUT_MS} ms\n${this.output()}`);
      }
      await sleep(100);
    }
  }

  /** Kills the process at once (SIGKILL: nothing of its own clean-up runs) and waits until it is gone. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** Stops the process as Ctrl-C would (SIGTERM), killing it if it takes longer than 15 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** Sends SIGTERM (the drain, main.ts) without waiting; answers the exit code once the process has ended. */
  terminate(): Promise<number | null> {
    const child = this.child;
    assert.ok(child, `server ${this.name} is not running`);
    child.kill('SIGTERM');
    return this.exited.then(() => this.exitCode);
  }

  /** Fetches a path of this process's API origin; `/__dev/` calls carry the dev secret. */
  call(path: string, init: RequestInit = {}): Promise<Answer> {
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    const headers = new Headers(init.headers);
    if (new URL(url).pathname.startsWith('/__dev/')) headers.set(DEV_SECRET_HEADER, this.devSecret);
    return request(url, { ...init, headers });
  }

  /** POSTs a JSON body. */
  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.call(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  /** GET /api/{path} on `demo` with the api key and, when given, a bearer token. */
  get(path: string, token?: string, query = ''): Promise<Answer> {
    return this.call(`/api/${path}?api_key=${this.key}${query ? `&${query}` : ''}`, { headers: bearer(token) });
  }

  /** POST /api/{path} on `demo` with the api key and, when given, a bearer token. */
  send(path: string, body: Record<string, unknown>, token?: string): Promise<Answer> {
    return this.post(`/api/${path}`, { api_key: this.key, ...body }, bearer(token));
  }

  /** The id of a demo event by its fixture key. */
  id(key: string): number {
    const id = this.events[key];
    assert.ok(id, `no demo event with key ${key}`);
    return id;
  }

  /** Signs in; answers the bearer token. */
  async signIn(email: string, password: string): Promise<string> {
    const res = await this.send('v2/auth/login', { email, password });
    assert.equal(res.status, 200, `sign-in of ${email} on ${this.name}: ${JSON.stringify(res.body)}`);
    return String(res.body.data.token);
  }

  /** Registers an account; answers the bearer token. */
  async register(email: string, password: string): Promise<string> {
    const res = await this.send('v2/auth/register', {
      first_name: 'Pat',
      last_name: 'Process',
      email,
      password,
      password_confirmation: password,
      terms: true,
    });
    assert.equal(res.status, 200, `registration of ${email} on ${this.name}: ${JSON.stringify(res.body)}`);
    return String(res.body.data.token);
  }

  /** What a single-event purchase of a demo event sends (its id and its single-event package). */
  async eventProduct(key: string): Promise<{ type: 'event'; id: number; single_event_package_id: number }> {
    const event = await this.get(`events/${this.id(key)}`);
    assert.equal(event.status, 200, JSON.stringify(event.body));
    return { type: 'event', id: event.body.data.id, single_event_package_id: event.body.data.single_event_package_id };
  }

  /** A demo event as a caller sees it (has_access, media), checked against the contract. */
  async event(key: string, token?: string): Promise<Event> {
    const res = await this.get(`events/${this.id(key)}`, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return endpoints.event.response.parse(res.body).data;
  }

  /** The orders of the dev endpoint for one email (with their transactions). */
  async devOrders(email: string): Promise<DevOrder[]> {
    const res = await this.call(`/__dev/orders?channel_key=demo&email=${encodeURIComponent(email)}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  }
}

/** An Authorization header for a token, if any. */
export const bearer = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

/** A fresh idempotency key. */
export const idempotencyKey = () => crypto.randomUUID();
