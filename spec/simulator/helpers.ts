import { createHmac } from 'node:crypto';
import { WebSocket } from 'ws';
import type { Simulator } from '../../lib/simulator';

/** Signs `query` + `body` (totalParams) with the simulator's secret; returns the hex signature. */
export const sign = (secret: string, totalParams: string): string => createHmac('sha256', secret).update(totalParams).digest('hex');

export interface Call {
  readonly method?: string;
  readonly path: string;
  /** Query params without signature. */
  readonly query?: string;
  /** Body params without signature. */
  readonly body?: string;
  /** Where the signature goes; default 'query' (no signature when 'none'). */
  readonly signatureIn?: 'query' | 'body' | 'none';
  readonly signature?: string;
  readonly headers?: Record<string, string>;
  readonly apiKey?: string | null;
  /** Aborts the call (e.g. `AbortSignal.timeout(ms)`: a client that gives up). */
  readonly signal?: AbortSignal;
}

export interface Answer {
  readonly status: number;
  readonly body: any;
  readonly text: string;
}

/** An HTTP call with the simulator's key and a valid signature unless told otherwise. */
export async function call(sim: Simulator, c: Call): Promise<Answer> {
  const query = c.query ?? '';
  const body = c.body ?? '';
  const signature = c.signature ?? sign(sim.secretKey, query + body);
  const join = (a: string, b: string): string => (a === '' ? b : `${a}&${b}`);
  const where = c.signatureIn ?? 'query';
  const q = where === 'query' ? join(query, `signature=${signature}`) : query;
  const b = where === 'body' ? join(body, `signature=${signature}`) : body;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', ...c.headers };
  if (c.apiKey !== null) headers['X-EX-APIKEY'] = c.apiKey ?? sim.apiKey;
  const res = await fetch(`${sim.baseUrl}${c.path}${q === '' ? '' : `?${q}`}`, {
    method: c.method ?? 'GET',
    headers,
    ...(b === '' ? {} : { body: b }),
    ...(c.signal === undefined ? {} : { signal: c.signal }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/** A signed call with `timestamp=serverTime` appended to the query. */
export const signedCall = (sim: Simulator, c: Call): Promise<Answer> =>
  call(sim, { ...c, query: c.query === undefined || c.query === '' ? `timestamp=${sim.serverTime()}` : `${c.query}&timestamp=${sim.serverTime()}` });

export const createListenKey = async (sim: Simulator): Promise<string> => {
  const r = await signedCall(sim, { method: 'POST', path: '/api/v1/userDataStream' });
  return r.body.listenKey as string;
};

/** A plain `ws` client that queues every frame. */
export class TestSocket {
  readonly ws: WebSocket;
  readonly frames: Array<string | Uint8Array> = [];
  private waiters: Array<() => void> = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      this.frames.push(isBinary ? new Uint8Array(buf) : buf.toString('utf8'));
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    });
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('close', () => reject(new Error('closed before open')));
    });
    this.opened.catch(() => undefined);
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async open(url: string): Promise<TestSocket> {
    const s = new TestSocket(url);
    await s.opened;
    return s;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Waits until `count` frames have arrived in total. */
  async waitFrames(count: number, timeoutMs = 5000): Promise<Array<string | Uint8Array>> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length < count) {
      if (Date.now() > deadline) throw new Error(`timeout waiting for ${count} frames (have ${this.frames.length})`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.frames;
  }

  /** The JSON of every text frame so far. */
  json(): any[] {
    return this.frames.filter((f): f is string => typeof f === 'string').map((f) => JSON.parse(f));
  }

  /** Waits for the first JSON frame (from `from`) that matches. */
  async waitJson(match: (m: any) => boolean, timeoutMs = 5000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.json().find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timeout; frames: ${this.frames.slice(-5).join(' | ')}`);
      await this.waitFrames(this.frames.length + 1, Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    return this.closed;
  }
}

/** Lets pending socket I/O happen (a round trip through the event loop). */
export const settle = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
