// The embedded database's own thread (pglite-worker.ts starts it): PGlite runs here, so a long statement holds up
// this thread only, never the one that reads requests and sends answers. Plain JavaScript, so it loads the same
// however the server was started (`node --import tsx` or the channel-server command).
//
// Messages in:  { id, op: 'query', text, values, tx? } | { id, op: 'exec', text, tx? } | { id, op: 'begin' }
//               | { id, op: 'end', tx, commit } | { id, op: 'listen', channel } | { id, op: 'close' }
// Messages out: { id, result } | { id, error } | { notify, payload }
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const INT8 = 20;
const NUMERIC = 1700;
const toNumber = (value) => Number(value);
const pg = await PGlite.create(workerData.dir, { parsers: { [INT8]: toNumber, [NUMERIC]: toNumber } });

/** The open transactions: their statement runner, and how to end them. */
const transactions = new Map();
let nextTx = 1;

/** What of an error crosses to the server's thread: its message and Postgres's fields (never its bound values). */
const FIELDS = ['code', 'severity', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'constraint', 'routine'];
const errorOf = (error) => {
  const out = { message: String(error?.message ?? error) };
  for (const field of FIELDS) if (error?.[field] !== undefined) out[field] = error[field];
  return out;
};

const rowsOf = (result) => ({ rows: result.rows, count: result.affectedRows ?? result.rows.length });

async function run(message) {
  switch (message.op) {
    case 'query': {
      const runner = message.tx ? transactions.get(message.tx)?.tx : pg;
      if (!runner) throw new Error('The transaction has ended.');
      return rowsOf(await runner.query(message.text, message.values));
    }
    case 'exec': {
      const runner = message.tx ? transactions.get(message.tx)?.tx : pg;
      if (!runner) throw new Error('The transaction has ended.');
      await runner.exec(message.text);
      return null;
    }
    case 'begin': {
      // PGlite commits when the callback's promise resolves and rolls back when it rejects: the callback waits for
      // the server's thread to say which ('end'), running its statements ('query', 'exec' with this tx) meanwhile.
      const id = nextTx++;
      const open = {};
      const ready = new Promise((resolve) => {
        open.done = pg.transaction(
          (tx) =>
            new Promise((commit, rollback) => {
              Object.assign(open, { tx, commit, rollback });
              resolve();
            }),
        );
      });
      // A rollback's rejection is the one asked for: it is awaited in 'end', never left unhandled.
      open.done.catch(() => undefined);
      transactions.set(id, open);
      await ready;
      return id;
    }
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) return null;
      transactions.delete(message.tx);
      if (message.commit) {
        open.commit();
        await open.done; // a commit that fails answers its error
      } else {
        open.rollback(new Error('rolled back'));
        await open.done.catch(() => undefined);
      }
      return null;
    }
    case 'listen':
      await pg.listen(message.channel, (payload) => parentPort.postMessage({ notify: message.channel, payload }));
      return null;
    case 'close':
      await pg.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  run(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) => parentPort.postMessage({ id: message.id, error: errorOf(error) }),
  );
});
parentPort.postMessage({ ready: true });
