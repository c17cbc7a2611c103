/**
 * The embedded database (PGlite) behind the storage interface, run on a thread of its own (pglite-thread.mjs):
 * PGlite executes each statement synchronously, so on the server's thread a long statement held every request up
 * (measured: a 1.99 s worst request at 50 connections). Here that thread only passes messages: statements,
 * transactions (begun, run statement by statement, committed or rolled back when the server's callback ends),
 * LISTEN, and the notifications back. Errors come back with Postgres's fields (`code`, `constraint`...), never their
 * bound values.
 */
import { Worker } from 'node:worker_threads';

/** A statement's answer, as both engines give it. */
export interface Answer<Row> {
  rows: Row[];
  count: number;
}

type Reply = { id: number; result?: unknown; error?: Record<string, unknown> };

/** The thread and the conversation with it. */
export interface PgliteThread<Row> {
  query(text: string, values: readonly unknown[], tx?: number): Promise<Answer<Row>>;
  exec(text: string, tx?: number): Promise<void>;
  begin(): Promise<number>;
  end(tx: number, commit: boolean): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<void>;
  /** Requests sent and not answered yet (the metrics' waiting count). */
  pending(): number;
  close(): Promise<void>;
}

/** An error from the thread as an Error with its Postgres fields. */
function errorFrom(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message)) as Error & Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) if (name !== 'message') error[name] = value;
  return error;
}

/** Starts the thread on the database folder `dir`; resolves once PGlite there is open. */
export async function startPgliteThread<Row>(dir: string): Promise<PgliteThread<Row>> {
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), { workerData: { dir } });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Array<(payload: string) => void>>();
  let next = 1;
  let gone: Error | undefined;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    worker.once('error', onError);
    worker.once('exit', (code) => reject(new Error(`the embedded database's thread exited (${code}) while opening`)));
    worker.on('message', function first(message: { ready?: boolean }) {
      if (!message.ready) return;
      worker.off('message', first);
      worker.off('error', onError);
      worker.removeAllListeners('exit');
      resolve();
    });
  });
  const fail = (error: Error) => {
    gone = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the embedded database's thread ended (${code})`)));
  worker.on('message', (message: Reply & { notify?: string; payload?: string }) => {
    if (message.notify !== undefined) {
      for (const handler of listeners.get(message.notify) ?? []) handler(message.payload ?? '');
      return;
    }
    const call = waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id);
    if (message.error) call.reject(errorFrom(message.error));
    else call.resolve(message.result);
  });
  const ask = <T>(message: Record<string, unknown>): Promise<T> => {
    if (gone) return Promise.reject(gone);
    const id = next++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  };
  return {
    query: (text, values, tx) => ask<Answer<Row>>({ op: 'query', text, values, tx }),
    exec: async (text, tx) => {
      await ask({ op: 'exec', text, tx });
    },
    begin: () => ask<number>({ op: 'begin' }),
    end: async (tx, commit) => {
      await ask({ op: 'end', tx, commit });
    },
    async listen(channel, onMessage) {
      const known = listeners.get(channel);
      if (known) known.push(onMessage);
      else {
        listeners.set(channel, [onMessage]);
        await ask({ op: 'listen', channel });
      }
    },
    pending: () => waiting.size,
    async close() {
      if (gone) return;
      await ask({ op: 'close' });
      await worker.terminate();
    },
  };
}
