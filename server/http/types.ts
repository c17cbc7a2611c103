/**
 * Types the reference server's modules share that belong to none of them in particular. Kept here, importing
 * nothing of ours, so that two modules needing the same shape never import each other for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The server's own origins, filled in once both listeners are bound (the ports may be picked by the system) and
 * read per call from then on. Every absolute URL is built from `bundle`, never from a request's Host header.
 */
export interface Origins {
  /** The public origin: API, keys host, media and the bundle (PUBLIC_URL, else `http://localhost:{port}`). */
  bundle: string;
  /** The CMS host listener's origin (dev mode only; '' otherwise). */
  cms: string;
}

/** Answers a request it recognises and resolves true; resolves false, having sent nothing, for any other. */
export type PathHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
