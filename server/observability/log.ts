/**
 * The server's log: JSON lines (pino), one object per line for a log system to index, pretty when it writes to a
 * terminal. What it must never hold, whatever a caller passes it: a password, a token, an api key, a card's details
 * or a full email address. Fields of those names are replaced (`redact`), and every string is passed through
 * `scrub` (emails become `v…@example.com`, bearer tokens and `api_key=` values go). The request log holds no URL at
 * all (request-log.ts): paths and queries carry api keys, media grants and portal sessions.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The fields whose values are never written. */
const SECRET_FIELDS = [
  'password',
  'password_confirmation',
  'current_password',
  'token',
  'api_key',
  'authorization',
  'secret',
  'code',
  'card',
  'number',
  'cvc',
  'payment_method',
];
const REDACT = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

/** An email address's local part, shortened to its first letter (the domain says which provider, not who). */
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

/** A text with emails, bearer tokens and secret query values taken out. */
export function scrub(text: string): string {
  return text
    .replace(EMAIL, '$1…@$2')
    .replace(/\b(Bearer)\s+[\w.~+/=-]+/gi, '$1 [redacted]')
    .replace(/([?&](?:api_key|token|signature|code|client_secret)=)[^&\s"']*/gi, '$1[redacted]');
}

/** Scrubs every string of a logged value, and an error's message and stack. */
function scrubbed(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error)
    return { type: value.name, message: scrub(value.message), stack: value.stack ? scrub(value.stack) : undefined };
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, depth + 1)]));
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
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
      formatters: { log: (object) => scrubbed(object) as Record<string, unknown> },
      hooks: {
        // The message too: a caller's text may quote an address or a token.
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? scrub(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
      serializers: { err: (error: unknown) => scrubbed(error) },
    },
    pretty
      ? pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss' } })
      : (options.destination ?? pino.destination({ fd: 1, sync: false })),
  );
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
