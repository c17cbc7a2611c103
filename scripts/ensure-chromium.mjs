#!/usr/bin/env node
// Makes sure a Chromium exists for the browser tests, installing one if it can. Run before the test runners.
// 1. Already found (CHROME_PATH, Playwright's browser, /usr/bin/chromium ...): print its path, exit 0.
// 2. Try `npx playwright install chromium` with a short timeout (its CDN is unreachable on our offline machines).
// 3. As root on Debian/Ubuntu: `apt-get update && apt-get install -y chromium`, non-interactively (CI has no stdin).
// 4. Still nothing: exit 1 and say exactly what to run.
// Then, as root on Debian/Ubuntu, the headless shell the test runners prefer (chromium.mjs, findTestChromium) is
// installed beside it when missing: `apt-get install -y chromium-headless-shell`. That one is best-effort: where it
// cannot be had, the tests run in the full browser, only slower.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { findChromium, findTestChromium, headlessShellPath } from './chromium.mjs';

const PLAYWRIGHT_INSTALL_TIMEOUT_MS = 90_000;
const APT_TIMEOUT_MS = 15 * 60_000;
const OPTIONAL_APT_TIMEOUT_MS = 3 * 60_000;

/** findChromium(), but a bad CHROME_PATH ends the script with its message instead of a stack trace. */
function find() {
  try {
    return findChromium();
  } catch (error) {
    console.error(`ensure-chromium: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}

/**
 * Runs a command with stdin closed, output shown, and a time limit that kills its whole process group
 * (npx and apt-get start children that a plain kill would leave behind). Resolves to the exit code, or null.
 */
function run(command, args, { timeoutMs, env = process.env }) {
  return new Promise((resolve) => {
    console.log(`ensure-chromium: $ ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env, detached: true });
    const timer = setTimeout(() => {
      console.error(`ensure-chromium: ${command} took longer than ${timeoutMs / 1000} s, stopping it.`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      console.error(`ensure-chromium: could not start ${command}: ${error.message}`);
      resolve(null);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** True on Debian, Ubuntu and their derivatives (by /etc/os-release) when apt-get is present. */
function isDebianLike() {
  if (!existsSync('/usr/bin/apt-get')) return false;
  try {
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    const ids = /^(?:ID|ID_LIKE)=(.*)$/gm;
    return [...osRelease.matchAll(ids)].some(([, value]) => /\b(debian|ubuntu)\b/.test(value));
  } catch {
    return false;
  }
}

const isRoot = process.getuid?.() === 0;
// noninteractive + closed stdin: no debconf prompt can wait for an answer. Lock::Timeout waits for another
// apt/dpkg run (unattended-upgrades, a parallel install) instead of failing at once on its lock.
const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const aptOptions = ['-o', 'DPkg::Lock::Timeout=600', '-o', 'Acquire::Retries=3'];
let aptUpdated = false;
/**
 * `apt-get install -y <pkg>` (after one `apt-get update`), each step within `timeoutMs`: resolves to its exit
 * code, or null.
 */
async function aptInstall(pkg, timeoutMs = APT_TIMEOUT_MS) {
  if (!aptUpdated) await run('apt-get', [...aptOptions, 'update'], { timeoutMs, env: aptEnv });
  aptUpdated = true;
  return run('apt-get', [...aptOptions, 'install', '-y', pkg], { timeoutMs, env: aptEnv });
}

async function done(path, how) {
  console.log(`ensure-chromium: using ${path}${how ? ` (${how})` : ''}`);
  if (!process.env.CHROME_PATH && !existsSync(headlessShellPath) && isRoot && isDebianLike()) {
    console.log('ensure-chromium: installing the headless shell the tests run in (chromium-headless-shell).');
    // Optional, so a slow or unreachable mirror costs at most a few minutes, not the full browser's wait.
    const code = await aptInstall('chromium-headless-shell', OPTIONAL_APT_TIMEOUT_MS);
    if (!existsSync(headlessShellPath)) {
      console.log(`ensure-chromium: no headless shell (apt-get exit ${code}); the tests use ${path}.`);
    }
  }
  console.log(`ensure-chromium: the test runners use ${findTestChromium()}`);
  process.exit(0);
}

let path = find();
if (path) await done(path);

console.log('ensure-chromium: no Chromium found; trying to install one.');

// Playwright's own download. Expected to fail offline, so keep it short; skip with ENSURE_CHROMIUM_SKIP_PLAYWRIGHT=1.
if (process.env.ENSURE_CHROMIUM_SKIP_PLAYWRIGHT !== '1') {
  const code = await run('npx', ['--no-install', 'playwright', 'install', 'chromium'], {
    timeoutMs: PLAYWRIGHT_INSTALL_TIMEOUT_MS,
  });
  path = find();
  if (path) await done(path, 'installed by Playwright');
  console.log(`ensure-chromium: Playwright's download did not work (exit ${code}); trying the system package.`);
}

if (isRoot && isDebianLike()) {
  // Debian calls it `chromium`; older Ubuntu only has `chromium-browser`.
  for (const pkg of ['chromium', 'chromium-browser']) {
    const code = await aptInstall(pkg);
    path = find();
    if (path) await done(path, `installed with apt-get (${pkg})`);
    if (code === 0) break;
  }
}

console.error(
  [
    '',
    'ensure-chromium: no Chromium available for the browser tests, and it could not be installed here.',
    isRoot ? '' : '(Not running as root, so the system package was not installed automatically.)',
    'Do one of:',
    '  sudo apt-get install -y chromium                 # Debian/Ubuntu, then run the tests again',
    '  CHROME_PATH=/path/to/chrome npm test             # use a Chrome/Chromium you already have',
    '',
  ]
    .filter((line, i, lines) => line !== '' || i === 0 || i === lines.length - 1)
    .join('\n'),
);
process.exit(1);
