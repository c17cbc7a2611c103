/**
 * What every command is made of (cli.ts lists them): its options for node:util parseArgs, its help, and the helpers
 * that read an option's value or refuse it naming the option and why.
 */
import type { ParseArgsConfig } from 'node:util';
import { UsageError, type Io } from './output.js';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | undefined>;

/** What a command's `run` gets. */
export interface Run {
  values: Values;
  positionals: string[];
  io: Io;
  json: boolean;
}

export interface Command {
  /** `events add`: the words that name it. */
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** The rest of its `--help`: usage, options, examples. */
  help: string;
  options: Options;
  /** Its positional arguments' names (`FILE`, `ID`): as many as given, no more, no fewer. */
  positionals?: string[];
  /** Goes through the operator API: takes --url and --token. */
  api?: boolean;
  run(run: Run): Promise<void>;
}

export const CONNECTION_HELP = `
The operator API: --url URL (the server's OPERATOR_PORT listener, such as http://127.0.0.1:8082) and --token TOKEN,
or CHANNEL_OPERATOR_URL and CHANNEL_OPERATOR_TOKEN. Prefer the environment for the token: an option stays in the
shell's history.`;

/** A string option's value (undefined when not given). */
export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** A required option's value, else a usage error naming it. */
export const need = (values: Values, name: string): string => {
  const value = str(values, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name}: required`);
  return value;
};

/** A number option (`--price 9.99`), or undefined; a usage error naming it when it is not a number. */
export const numberOf = (values: Values, name: string, integer = false): number | undefined => {
  const value = str(values, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
    throw new UsageError(`--${name}: expected ${integer ? 'a whole number' : 'a number'}, not '${value}'`);
  return n;
};

/** An id option (`--category 4`). */
export const idOf = (values: Values, name: string): number | undefined => {
  const n = numberOf(values, name, true);
  if (n !== undefined && n <= 0) throw new UsageError(`--${name}: expected an id (a positive whole number)`);
  return n;
};
