// Types of scripts/nginx.mjs (plain JS, run by node without a build), for the TypeScript that imports it: dev mode's
// start (server/main.ts) and the ingest tests.

/** The repo's RTMP block (server/media/ingest/nginx-rtmp.conf). */
export const RTMP_CONF: string;
/** What to run when nginx with its RTMP module is not installed. */
export const INSTALL_HINT: string;
/** Whether nginx with its RTMP module is here now (nothing is installed). */
export function nginxAvailable(): boolean;
/** A free loopback port at this moment. */
export function freePort(): Promise<number>;
/** The repo's RTMP block with its placeholders filled in. */
export function rtmpBlock(options: { listen: string; hookOrigin: string; hlsDir: string }): string;

/** A running throw-away nginx. */
export interface RunningNginx {
  /** rtmp://127.0.0.1:PORT/live: what encoders publish under (INGEST_RTMP_URL). */
  rtmpUrl: string;
  /** Where nginx writes HLS (INGEST_HLS_DIR). */
  hlsDir: string;
  /** Its error log (at `crit` unless NGINX_LOG_LEVEL says otherwise). */
  errorLog: string;
  /** Stops nginx and removes its folder. */
  stop(): Promise<void>;
}

/** Starts nginx with the RTMP block on loopback; installs Debian's packages as root when missing. */
export function startNginx(options: { hookOrigin: string; hlsDir?: string; port?: number }): Promise<RunningNginx>;
