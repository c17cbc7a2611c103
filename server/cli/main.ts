/**
 * `channel-server COMMAND …` (bin/channel-server.mjs runs this when a command is given): runs it with the process's
 * streams and environment, and exits with its code (cli.ts).
 */
import { text } from 'node:stream/consumers';
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (chunk) => void process.stdout.write(chunk),
  err: (chunk) => void process.stderr.write(chunk),
  env: process.env,
  cwd: process.cwd(),
  stdin: () => text(process.stdin),
});
