/**
 * What the server benchmarks share: a free port, and the viewer mix each connection loops over (a new visitor's
 * `POST get_api_key`, the keyless settings, the events list (20), one event, and a signed-in viewer's profile).
 */
import { createServer } from 'node:net';
import type autocannon from 'autocannon';

/** A bench server's environment: the per-address limits lifted (every request here comes from one address). */
export const LIFTED_LIMITS = {
  METRICS_PORT: '0',
  RATE_LIMIT_MAX: '100000000',
  API_KEY_RATE_MAX: '100000000',
  REGISTRATION_RATE_MAX: '100000000',
};

/** A free local port. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: Record<string, string> };
};

/** A new api key of the demo channel and the signed-in demo buyer's token on it. */
export async function buyerSession(origin: string): Promise<{ apiKey: string; token: string }> {
  const apiKey = (await post(`${origin}/api/get_api_key`, { channel_key: 'demo' })).data.api_key!;
  const login = await post(`${origin}/api/v2/auth/login`, {
    api_key: apiKey,
    email: 'buyer@demo-sports.example',
    password: 'demo-password',
  });
  return { apiKey, token: login.data.token! };
}

/** The viewer mix's requests, with a returning viewer's api key and a signed-in viewer's token. */
export async function viewerMix(origin: string): Promise<autocannon.Request[]> {
  const { apiKey, token } = await buyerSession(origin);
  const events = (await (await fetch(`${origin}/api/events?api_key=${apiKey}&limit=1`)).json()) as {
    data: Array<{ id: number }>;
  };
  return [
    {
      method: 'POST',
      path: '/api/get_api_key',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel_key: 'demo' }),
    },
    { method: 'GET', path: '/api/settings?channel_key=demo' },
    { method: 'GET', path: `/api/events?api_key=${apiKey}&limit=20` },
    { method: 'GET', path: `/api/events/${events.data[0]!.id}?api_key=${apiKey}` },
    { method: 'GET', path: `/api/profile?api_key=${apiKey}`, headers: { authorization: `Bearer ${token}` } },
  ];
}
