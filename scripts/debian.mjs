// Debian's packages for the services the tests run (scripts/postgres.mjs, scripts/nginx.mjs): whether this process
// may install them (root, on Debian, Ubuntu or a derivative with apt-get), and the install itself, non-interactive
// (stdin closed, waiting for another apt run's lock rather than failing on it).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const APT_TIMEOUT_MS = 15 * 60_000;

export const isRoot = () => process.getuid?.() === 0;

/** True on Debian, Ubuntu and their derivatives (by /etc/os-release) when apt-get is present. */
export function isDebianLike() {
  if (!existsSync('/usr/bin/apt-get')) return false;
  try {
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    return [...osRelease.matchAll(/^(?:ID|ID_LIKE)=(.*)$/gm)].some(([, value]) => /\b(debian|ubuntu)\b/.test(value));
  } catch {
    return false;
  }
}

/**
 * `apt-get update` then `apt-get install -y` of `packages` (plus `options`), each command shown under `label`
 * (`postgres: $ apt-get …`). Whether it worked is for the caller to look at: it finds the binaries or it does not.
 */
export function aptInstall(label, packages, options = []) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', ...options, ...packages]]) {
    console.log(`${label}: $ apt-get ${args.join(' ')}`);
    spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env,
      timeout: APT_TIMEOUT_MS,
    });
  }
}
