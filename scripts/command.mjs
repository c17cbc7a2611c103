// What scripts/postgres.mjs and scripts/nginx.mjs share as command-line wrappers (`node scripts/X.mjs -- CMD`): run
// the command with a service's environment, pass signals on, and exit as the command did; and whether a script is
// the one node was started with (run) or imported (by tests and dev mode).
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The signal numbers of the signals a command may end by, for the shell's 128+n exit code. */
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/**
 * Runs `command` (argv) with `env`, its output on ours; resolves with its exit code (128+n when a signal ended it,
 * 127 when it could not start, the message prefixed by `label`). Ctrl-C reaches the command too (same process group)
 * and it decides how to end; a signal sent to us alone (a CI runner's SIGTERM) is passed on. Either way the caller
 * hears of the end only once the command has ended, so it stops its service after.
 */
export function runCommand(label, command, env) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
    const forward = (signal) => () => {
      if (signal !== 'SIGINT') child.kill(signal);
    };
    const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => [signal, forward(signal)]);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const done = (code) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve(code);
    };
    child.on('error', (error) => {
      console.error(`${label}: could not start ${command[0]}: ${error.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? 128 + (SIGNALS[signal] ?? 1)));
  });
}

/** Whether the module at `url` (its import.meta.url) is the script node was started with, not an import. */
export function isMain(url) {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(url));
  } catch {
    return false;
  }
}
