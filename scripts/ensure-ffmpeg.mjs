#!/usr/bin/env node
// Makes sure ffmpeg (and its ffprobe) exist for the reference server, which makes its test video with them at first
// start (server/media/media.ts). Run before `npm start` and the tests.
// 1. Found (FFMPEG_PATH, then PATH): print its path, exit 0.
// 2. As root on Debian/Ubuntu: `apt-get update && apt-get install -y ffmpeg`, non-interactively.
// 3. Still nothing: exit 1 and say exactly what to run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const APT_TIMEOUT_MS = 15 * 60_000;

/** The ffmpeg to use, or undefined. FFMPEG_PATH wins; a FFMPEG_PATH that does not exist is an error. */
function findFfmpeg() {
  const configured = process.env.FFMPEG_PATH;
  if (configured) {
    if (existsSync(configured)) return configured;
    console.error(`ensure-ffmpeg: FFMPEG_PATH=${configured} does not exist.`);
    process.exit(1);
  }
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...dirs, '/usr/bin', '/usr/local/bin'].map((dir) => join(dir, 'ffmpeg')).find((file) => existsSync(file));
}

/** Whether `ffmpeg -version` runs (a broken install answers a path but cannot start). */
function works(path) {
  return spawnSync(path, ['-hide_banner', '-version'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
}

const found = findFfmpeg();
if (found && works(found)) {
  console.log(`ensure-ffmpeg: using ${found}`);
  process.exit(0);
}

const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
const debianLike = existsSync('/usr/bin/apt-get') && /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(osRelease);
const root = process.getuid?.() === 0;

if (root && debianLike) {
  console.log('ensure-ffmpeg: no ffmpeg found; installing the system package.');
  // Noninteractive with stdin closed so no prompt can wait; wait for another apt run's lock instead of failing.
  const apt = (...args) => {
    console.log(`ensure-ffmpeg: $ apt-get ${args.join(' ')}`);
    return spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: APT_TIMEOUT_MS,
    }).status;
  };
  apt('update');
  const status = apt('install', '-y', 'ffmpeg');
  const installed = findFfmpeg();
  if (installed && works(installed)) {
    console.log(`ensure-ffmpeg: using ${installed} (installed with apt-get)`);
    process.exit(0);
  }
  console.error(`ensure-ffmpeg: apt-get install ffmpeg did not give a working ffmpeg (exit ${status}).`);
}

console.error(
  [
    '',
    'ensure-ffmpeg: the reference server needs ffmpeg (with ffprobe) to make its test video, and none was found.',
    ...(root ? [] : ['(Not running as root, so the system package was not installed automatically.)']),
    'Do one of:',
    '  sudo apt-get install -y ffmpeg              # Debian/Ubuntu, then run the command again',
    '  brew install ffmpeg                         # macOS',
    '  FFMPEG_PATH=/path/to/ffmpeg npm start       # use an ffmpeg you already have (ffprobe next to it)',
    '',
  ].join('\n'),
);
process.exit(1);
