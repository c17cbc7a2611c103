/**
 * The server's log: JSON lines (pino), one object per line for a log system to index, pretty when it writes to a
 * terminal. What it must never hold, whatever a caller passes it: a password, a token, an api key, a card's details,
 * a full email address, or a Stripe secret (a secret key, a webhook signing secret, an intent's client secret).
 * Fields of those names are replaced at any depth, and every string is passed through `scrub` (emails become
 * `v…@example.com`; bearer tokens, `api_key=` values and Stripe's secrets go). The request log holds no URL at all
 * (request-log.ts): paths and queries carry api keys, media grants and portal sessions.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The fields whose values are never written, at any depth. */
const SECRET_FIELDS = new Set([
  'password',
  'password_confirmation',
  'current_password',
  'token',
  'api_key',
  'authorization',
  'secret',
  'card',
  'cvc',
  'payment_method',
  'client_secret',
  'secretkey',
  'webhooksecret',
  // A channel's own secrets (channel/secrets.ts), by their stored names, and the providers' options.
  // A live event's stream key (media/ingest/ingest.ts): whoever has it can put pictures on the channel.
  'stream_key',
  'ingest_key',
  'stripe_secret_key',
  'stripe_webhook_secret',
  'google_client_secret',
  'facebook_app_secret',
  'mux_signing_private_key',
  'private_key',
  'privatekey',
  'clientsecret',
  'appsecret',
]);
const REDACTED = '[redacted]';

/** An email address's local part, shortened to its first letter (the domain says which provider, not who). */
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

/** What each of the patterns below needs in a text: most texts (a route, a method, an id) have none of it. */
const SUSPECT = /[@=]|bearer|sk_|rk_|whsec_|_secret_/i;

/** Stripe's secrets: secret and restricted keys, webhook signing secrets, intents' client secrets. */
const STRIPE_SECRET = /\b(?:(?:sk|rk)_(?:live|test)_|whsec_)\w+|\b((?:pi|seti)_\w+?)_secret_\w+/g;

/** A text with emails, bearer tokens, secret query values and Stripe's secrets taken out. */
export function scrub(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text
    .replace(EMAIL, '$1…@$2')
    .replace(/\b(Bearer)\s+[\w.~+/=-]+/gi, '$1 [redacted]')
    .replace(/([?&](?:api_key|token|signature|code|client_secret)=)[^&\s"']*/gi, '$1[redacted]')
    .replace(STRIPE_SECRET, (_, intent?: string) => (intent ? `${intent}_secret_[redacted]` : '[redacted]'));
}

/**
 * A logged value with every field of a secret's name replaced and every string scrubbed, an error's message and
 * stack too (its own fields as well: a database error's `detail` quotes the row).
 */
function scrubbed(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, depth + 1));
  const out: Record<string, unknown> =
    value instanceof Error ? { type: value.name, message: value.message, stack: value.stack } : {};
  for (const [key, item] of Object.entries(value)) out[key] = item;
  for (const key of Object.keys(out))
    out[key] = SECRET_FIELDS.has(key.toLowerCase()) ? REDACTED : scrubbed(out[key], depth + 1);
  return out;
}

/** Marks a log object built by the server from values it made (a request line): written without the walk. */
const TRUSTED = Symbol('trusted');

/** `object` as one the log need not scrub: its fields are the server's own (no caller's text in any of them). */
export function trusted<T extends object>(object: T): T {
  return Object.assign(object, { [TRUSTED]: true });
}

export interface LogOptions {
  /** pino's level: fatal, error, warn, info, debug, trace or silent. Default info. */
  level?: string;
  /** Human-readable lines (pino-pretty) instead of JSON. Default: when standard output is a terminal. */
  pretty?: boolean;
  /** Where the lines go (tests); default standard output. */
  destination?: DestinationStream;
}

/** A logger with the server's redaction and scrubbing. */
export function createLogger(options: LogOptions = {}): Logger {
  const pretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      // Milliseconds since 1970 (pino's default, the cheapest to write; log systems read it as a time).
      hooks: {
        // Every argument: the object (unless the server built it, `trusted`) and the message, which may quote an
        // address or a token.
        logMethod(args, method) {
          // The request line (an object the server built, a message with nothing to scrub) goes as it is.
          const [first, message] = args;
          if (typeof first === 'object' && first !== null && TRUSTED in first && typeof message === 'string')
            if (args.length === 2 && !SUSPECT.test(message)) return method.apply(this, args);
          method.apply(
            this,
            args.map((arg) =>
              typeof arg === 'string'
                ? scrub(arg)
                : arg !== null && typeof arg === 'object' && !(TRUSTED in arg)
                  ? scrubbed(arg)
                  : arg,
            ) as Parameters<typeof method>,
          );
        },
      },
    },
    pretty
      ? pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss' } })
      : (options.destination ?? buffered()),
  );
}

/** How often buffered lines are written out at the latest. */
const FLUSH_MS = 500;
/** Lines are handed to the writer in batches of at least this many characters (or every FLUSH_MS). */
const BATCH_CHARS = 16_384;

/**
 * Standard output through sonic-boom (pino's writer: asynchronous writes, retried while a pipe is full), fed in
 * batches: lines wait in a list and are joined once a batch, so a request line costs a push. (sonic-boom's own
 * `minLength` buffering measures its whole pending text again on every line: about 4 µs a line at 4 kB, most of
 * what the request log cost.)
 */
function buffered(): DestinationStream {
  const stream = pino.destination({ fd: 1, sync: false });
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    const text = lines.join('');
    lines = [];
    size = 0;
    stream.write(text);
  };
  setInterval(flush, FLUSH_MS).unref();
  // The last lines are written before the process ends (a crash loses at most FLUSH_MS of them).
  process.once('exit', () => {
    flush();
    stream.flushSync();
  });
  return {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= BATCH_CHARS) flush();
    },
  };
}

/** The process's logger: what modules without a server context (storage, media, jobs) write to. */
let current: Logger | undefined;

/**
 * The process's logger: the one main.ts set at start with the configured level (`useLogger`), else, for a server
 * started in-process (the tests, the bench), one made on first use that writes warnings and errors only.
 */
export function log(): Logger {
  return (current ??= createLogger({ level: 'warn' }));
}

/** Makes `logger` the process's logger (main.ts, with the configured level). */
export function useLogger(logger: Logger): void {
  current = logger;
}
