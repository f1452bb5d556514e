import { parseArgs } from '../../docs/examples/demo/args';

describe('parseArgs', () => {
  it('defaults to the simulator, 30 s, BTCUSDT and ETHUSDT, with orders', () => {
    expect(parseArgs([], {})).toEqual({
      kind: 'run',
      options: { durationMs: 30_000, symbols: ['BTCUSDT', 'ETHUSDT'], target: { kind: 'simulator' }, placeOrders: true, plain: false },
    });
  });

  it('reads --duration (0 = until Ctrl-C), --symbols and --plain, with or without =', () => {
    const parsed = parseArgs(['--duration=12.5', '--symbols', 'solusdt, ETHUSDT,solusdt', '--plain'], {});
    expect(parsed).toMatchObject({ kind: 'run', options: { durationMs: 12_500, symbols: ['SOLUSDT', 'ETHUSDT'], plain: true } });
    expect(parseArgs(['--duration', '0'], {})).toMatchObject({ kind: 'run', options: { durationMs: undefined } });
  });

  it.each([
    [['--duration'], /--duration needs a number/],
    [['--duration', 'soon'], /--duration needs a number/],
    [['--duration', '-1'], /--duration needs a number/],
    [['--symbols', ' , '], /--symbols needs/],
    [['--url', 'http://x'], /--url needs a ws/],
    [['--verbose'], /unknown argument "--verbose"/],
  ])('rejects %j', (argv, message) => {
    const parsed = parseArgs(argv, {});
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toMatch(message);
  });

  it('refuses keys on the command line without echoing them', () => {
    for (const argv of [['--secret-key', 's3cr3t'], ['--secret=s3cr3t'], ['--api-key', 'k'], ['--apiKey=k']]) {
      const parsed = parseArgs(argv, {});
      expect(parsed).toMatchObject({ kind: 'error', message: expect.stringMatching(/environment only/) });
      expect(JSON.stringify(parsed)).not.toContain('s3cr3t');
    }
  });

  it('--help wins', () => {
    expect(parseArgs(['--duration', '5', '--help'], {})).toEqual({ kind: 'help' });
  });

  it('points at a deployment with --url (or EX_STREAMS_PUBLIC_URL), keys from the environment, no orders unless asked', () => {
    const env = {
      EX_STREAMS_REST_URL: 'https://api.example.com',
      EX_STREAMS_PRIVATE_URL: 'wss://stream.example.com/api/v1/ws',
      EX_STREAMS_API_KEY: 'key',
      EX_STREAMS_SECRET_KEY: 'secret',
      EX_STREAMS_API_KEY_HEADER: '',
    };
    expect(parseArgs(['--url', 'wss://stream.example.com/quote/ws/v1'], env)).toEqual({
      kind: 'run',
      options: {
        durationMs: 30_000,
        symbols: ['BTCUSDT', 'ETHUSDT'],
        placeOrders: false,
        plain: false,
        target: {
          kind: 'deployment',
          publicUrl: 'wss://stream.example.com/quote/ws/v1',
          restUrl: 'https://api.example.com',
          privateUrl: 'wss://stream.example.com/api/v1/ws',
          apiKey: 'key',
          secretKey: 'secret',
        },
      },
    });
    expect(parseArgs(['--place-orders'], { EX_STREAMS_PUBLIC_URL: 'ws://127.0.0.1:1/quote/ws/v1' })).toMatchObject({
      kind: 'run',
      options: { placeOrders: true, target: { kind: 'deployment', publicUrl: 'ws://127.0.0.1:1/quote/ws/v1' } },
    });
  });
});
