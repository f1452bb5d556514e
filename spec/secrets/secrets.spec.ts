import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrafficReport } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator';
import { hmacHex } from '../../lib/simulator/http/auth';
import { runSoak, type SoakReport } from '../soak/runSoak';

/** Every text a user could see: messages, toString(), fields of errors, status events, console lines. */
function surfaces(report: SoakReport, logLines: readonly string[]): string[] {
  const { seen, orders } = report;
  const errorTexts = (e: Error): string[] => {
    const fields = Object.entries(e).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return [e.message, String(e), e.stack ?? '', ...fields];
  };
  const statusTexts = (s: unknown): string => JSON.stringify(s, (_k, v: unknown) => (v instanceof Error ? errorTexts(v).join(' ') : v));
  return [
    ...seen.marketErrors.flatMap(errorTexts),
    ...seen.userErrors.flatMap(errorTexts),
    ...orders.errors.flatMap(errorTexts),
    ...seen.marketStatus.map((s) => statusTexts(s.status)),
    ...seen.userStatus.map((s) => statusTexts(s.status)),
    ...seen.userGaps.map((g) => JSON.stringify(g.gap)),
    ...seen.terminated,
    ...logLines,
  ];
}

describe('secret hygiene during a short soak', () => {
  let report: SoakReport;
  let traffic: TrafficReport;
  const logLines: string[] = [];

  beforeAll(async () => {
    const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
    const spies = methods.map((m) => jest.spyOn(console, m).mockImplementation((...args: unknown[]) => void logLines.push(args.map(String).join(' '))));
    try {
      report = await runSoak({
        chaosMs: 10_000,
        meanFaultIntervalMs: 500,
        recoveryMs: 5000,
        seed: 11,
        recordTraffic: true,
        inspect: (sim) => (traffic = sim.traffic()),
      });
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  }, 60_000);

  /** The listen keys (from the upgrade paths), signatures (from the requests) and 2FA tokens of the run. */
  const secretsOfRun = (): { name: string; value: string }[] => {
    const listenKeys = new Set(traffic.upgrades.filter((u) => u.startsWith('/api/v1/ws/')).map((u) => decodeURIComponent(u.slice('/api/v1/ws/'.length))));
    const signatures = new Set<string>();
    for (const r of traffic.requests) {
      for (const part of [new URL(r.url, 'http://x').searchParams, new URLSearchParams(r.body)]) {
        const s = part.get('signature');
        if (s) signatures.add(s);
      }
    }
    return [
      { name: 'secret key', value: report.secrets.secretKey },
      ...[...listenKeys].map((value) => ({ name: 'listen key', value })),
      ...[...signatures].map((value) => ({ name: 'signature', value })),
      ...report.secrets.twoFactorTokens.map((value) => ({ name: '2FA token', value })),
    ];
  };

  it('had secrets of every kind to look for, and many texts to look in', () => {
    const kinds = new Set(secretsOfRun().map((s) => s.name));
    expect([...kinds].sort()).toEqual(['2FA token', 'listen key', 'secret key', 'signature']);
    expect(report.seen.userErrors.length + report.seen.marketErrors.length).toBeGreaterThan(5);
    expect(report.faults.some((f) => f.kind === 'listenKeyExpiry' && f.detail === 'expired')).toBe(true);
  });

  it('no secret in any error message, toString(), error field, status event, gap or log line', () => {
    const texts = surfaces(report, logLines);
    const leaks = secretsOfRun().flatMap(({ name, value }) => texts.filter((t) => t.includes(value)).map((t) => `${name} in: ${t.slice(0, 120)}`));
    expect(leaks).toEqual([]);
  });

  it('the client never puts the secret key into a URL, a header, a body or a frame', () => {
    const secret = report.secrets.secretKey;
    const places = [
      ...traffic.requests.flatMap((r) => [r.url, JSON.stringify(r.headers), r.body]),
      ...traffic.upgrades,
      ...traffic.frames.map((f) => f.data),
    ];
    expect(traffic.requests.length).toBeGreaterThan(20);
    expect(traffic.frames.length).toBeGreaterThan(20);
    expect(places.filter((p) => p.includes(secret))).toEqual([]);
  });

  it('listen keys travel only where the specification puts them (stream path, listenKey parameter)', () => {
    const keys = secretsOfRun().filter((s) => s.name === 'listen key').map((s) => s.value);
    const elsewhere = [...traffic.requests.flatMap((r) => [JSON.stringify(r.headers), r.body]), ...traffic.frames.map((f) => f.data)];
    expect(elsewhere.filter((p) => keys.some((k) => p.includes(k)))).toEqual([]);
  });
});

describe('simulator signature comparison', () => {
  it('compares with crypto.timingSafeEqual on equal-length buffers, in the code', () => {
    const source = readFileSync(join(__dirname, '../../lib/simulator/http/auth.ts'), 'utf8');
    const body = source.slice(source.indexOf('export function verifySigned'));
    expect(body).toMatch(/given\.length === expected\.length && timingSafeEqual\(given, expected\)/);
    expect(body).not.toMatch(/signature[^\n]*===\s*(expected|hmac)/i);
  });

  // node:crypto's exports cannot be spied on (non-configurable), so the call itself is checked in the code above.
  it('in behaviour: any hex case accepted; a wrong or short signature a clean 401 (timingSafeEqual never sees unequal lengths)', async () => {
    const sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0 });
    try {
      const call = async (signature: (query: string) => string): Promise<{ status: number; body: unknown }> => {
        const query = `timestamp=${sim.serverTime()}`;
        const res = await fetch(`${sim.baseUrl}/api/v1/account?${query}&signature=${signature(query)}`, { headers: { 'X-EX-APIKEY': sim.apiKey } });
        return { status: res.status, body: await res.json() };
      };
      const good = (q: string): string => hmacHex(sim.secretKey, q);
      expect((await call(good)).status).toBe(200);
      expect((await call((q) => good(q).toUpperCase())).status).toBe(200);
      const flipped = (q: string): string => (good(q).startsWith('0') ? '1' : '0') + good(q).slice(1);
      expect(await call(flipped)).toEqual({ status: 401, body: { code: -1022, msg: 'Signature for this request is not valid.' } });
      expect(await call((q) => good(q).slice(0, 10))).toEqual({ status: 401, body: { code: -1022, msg: 'Signature for this request is not valid.' } });
      expect((await call((q) => `${good(q)}00`)).status).toBe(401);
    } finally {
      await sim.close();
    }
  });
});
