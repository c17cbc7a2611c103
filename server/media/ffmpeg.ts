/**
 * The ffmpeg tools the server runs (test media, thumbnails, clips) and a runner for them: FFMPEG_PATH (with ffprobe
 * next to it) or FFPROBE_PATH when set, else found on PATH or in the usual system folders.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** A tool on PATH or in the usual system folders (as scripts/ensure-ffmpeg.mjs looks), else its bare name. */
function tool(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin', '/usr/local/bin'];
  return dirs.map((d) => join(d, name)).find((file) => existsSync(file)) ?? name;
}

/** The ffmpeg and ffprobe to run: FFMPEG_PATH (with ffprobe next to it) / FFPROBE_PATH, else found as above. */
export const FFMPEG = process.env.FFMPEG_PATH || tool('ffmpeg');
export const FFPROBE =
  process.env.FFPROBE_PATH ||
  (process.env.FFMPEG_PATH ? join(dirname(process.env.FFMPEG_PATH), 'ffprobe') : tool('ffprobe'));

/** Runs a tool to completion; answers its stdout, or rejects with the end of its stderr. */
export function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${command} not found. Run \`node scripts/ensure-ffmpeg.mjs\` (or \`apt-get install -y ffmpeg\`), or set FFMPEG_PATH.`,
            )
          : error,
      );
    });
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}:\n${err.trim()}`)),
    );
  });
}
