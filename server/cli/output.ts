/**
 * What a command says and how it fails. A command writes its answer to `out` (with `--json`, one JSON document) and
 * nothing else there; problems go to `err`. Exit codes: 0 done, 1 refused or failed (the database, the API, a file),
 * 2 a usage error (an unknown command or option, a missing or bad value): the message names the option and why.
 */

/** Where a command reads and writes (the process's streams, or a test's). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  /** The working directory, for relative FILE arguments. */
  cwd: string;
  /** Standard input, whole (secrets given by a pipe). */
  stdin(): Promise<string>;
}

/** A command that could not be done: exit 1 (2 for a usage error), its message on stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    /** What `--json` prints on stderr besides the message (an API's error answer). */
    readonly details: Record<string, unknown> = {},
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A command line that is not one: exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, {}, 2);
    this.name = 'UsageError';
  }
}

/** Prints `value` as JSON (`--json`) or as `text`. */
export function answer(io: Io, json: boolean, value: unknown, text: string): void {
  io.out(json ? `${JSON.stringify(value, null, 2)}\n` : text.endsWith('\n') ? text : `${text}\n`);
}

/** Rows as aligned columns (a list's human form). */
export function table(rows: Array<Array<string | number | null | undefined>>): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  const widths = cells[0]?.map((_, c) => Math.max(...cells.map((row) => row[c]!.length))) ?? [];
  return cells
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
