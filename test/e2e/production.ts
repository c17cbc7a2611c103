// A production channel server started as an operator starts one (server/main.ts without CHANNEL_DEV, on a new
// embedded database in a DATA_DIR of its own), and the command line (`channel-server`) run as an operator runs it:
// on that database until the operator has a token, then through the operator API. The specs that go from nothing to
// a channel start from it (operating.spec.ts, streams.spec.ts, ingest.spec.ts), and so does the ingest bench.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'server', 'bin', 'channel-server.mjs');

/** The listeners of one production server: the channel API, the operator API and the operations listener. */
export interface ProductionPorts {
  server: number;
  operator: number;
  metrics: number;
}

export class ProductionServer {
  /** The channel API's origin, as a host page names it. */
  readonly url: string;
  /** The operator API's origin (loopback, as it listens by default). */
  readonly operatorUrl: string;
  /** The server's standard output and error so far (asserted to hold no secret). */
  output = '';
  /** The operator's token: once set, `cli` works through the operator API. */
  token = '';
  private dir = '';
  private child: ChildProcess | undefined;

  /** `name` names its DATA_DIR (made on first use, so loading the spec to list its tests makes none). */
  constructor(
    private readonly name: string,
    private readonly ports: ProductionPorts,
  ) {
    this.url = `http://localhost:${ports.server}`;
    this.operatorUrl = `http://127.0.0.1:${ports.operator}`;
  }

  get dataDir(): string {
    this.dir ||= fs.mkdtempSync(path.join(os.tmpdir(), `channel-${this.name}-`));
    return this.dir;
  }

  /** Runs `channel-server ARGS` (it must succeed): its standard output. `dataDir` for a database of another folder. */
  async cli(args: string[], dataDir = this.dataDir): Promise<string> {
    const api = this.token ? { CHANNEL_OPERATOR_URL: this.operatorUrl, CHANNEL_OPERATOR_TOKEN: this.token } : {};
    const { stdout } = await run(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined, CHANNEL_DEV: undefined, ...api },
      timeout: 120_000,
    });
    return stdout.trim();
  }

  /** `cli` with --json: the answer's data. */
  async cliJson<T = Record<string, unknown>>(args: string[]): Promise<T> {
    const parsed = JSON.parse(await this.cli([...args, '--json'])) as { data?: T } & T;
    return (parsed.data ?? parsed) as T;
  }

  /** `operator add` of a channel's owner on the database (its token is printed once); `cli` uses that token then. */
  async addOwner(channel: string, email: string): Promise<string> {
    const owner = await this.cliJson<{ token: string }>([
      ...['operator', 'add', '--channel', channel, '--email', email, '--role', 'owner'],
    ]);
    if (!/^chop_/.test(owner.token ?? '')) throw new Error(`operator add printed no token: ${JSON.stringify(owner)}`);
    this.token = owner.token;
    return this.token;
  }

  /**
   * Starts the server and waits until it says it serves (two minutes at most: a first start makes the media); `env`
   * is added to its environment (INGEST_* for live ingest, say).
   */
  async start(env: Record<string, string | undefined> = {}): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        CHANNEL_DEV: undefined,
        DATABASE_URL: undefined,
        PORT: String(this.ports.server),
        OPERATOR_PORT: String(this.ports.operator),
        METRICS_PORT: String(this.ports.metrics),
        DATA_DIR: this.dataDir,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    const deadline = Date.now() + 120_000;
    while (!this.output.includes('Channel API (production mode):')) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the production server did not start:\n${this.output.slice(-4000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Stops the server as an operator does (SIGTERM, then it drains) and removes its DATA_DIR. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
