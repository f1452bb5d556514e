import { CLI_NAME, CONTROL_TOKEN_ENV, helpText, parseCliArgs } from '../../lib/simulator/cli/cliArgs';

describe('parseCliArgs', () => {
  it('runs with no options, no JSON and nothing set', () => {
    expect(parseCliArgs([], {})).toEqual({ kind: 'run', options: {}, json: false });
  });

  it('reads every option, as --name VALUE or --name=VALUE, and the flags', () => {
    const argv = [
      '--port', '8080',
      '--host=0.0.0.0',
      '--symbols', 'BTCUSDT, ETHBTC',
      '--seed=4294967295',
      '--api-key', 'key-1',
      '--secret-key=s e c r e t',
      '--api-key-header', 'X-OPR-APIKEY',
      '--control-token', 'tok',
      '--two-factor',
      '--batch-private-events',
      '--json',
    ];
    expect(parseCliArgs(argv, {})).toEqual({
      kind: 'run',
      json: true,
      options: {
        port: 8080,
        host: '0.0.0.0',
        symbols: ['BTCUSDT', 'ETHBTC'],
        seed: 4294967295,
        apiKey: 'key-1',
        secretKey: 's e c r e t',
        apiKeyHeader: 'X-OPR-APIKEY',
        controlToken: 'tok',
        twoFactor: true,
        batchPrivateEvents: true,
      },
    });
  });

  it('takes a value that starts with a dash, but not another option, after --name', () => {
    expect(parseCliArgs(['--secret-key', '-x'], {})).toMatchObject({ kind: 'run', options: { secretKey: '-x' } });
    expect(parseCliArgs(['--secret-key', '--'], {})).toMatchObject({ kind: 'run', options: { secretKey: '--' } });
  });

  it.each([['--help'], ['-h']])('%s asks for the help, whatever comes with it', (help) => {
    expect(parseCliArgs(['--port', '1', help, '--frobnicate'], {})).toEqual({ kind: 'help' });
  });

  it.each<[string[], string]>([
    [['--port', 'abc'], "--port must be an integer 0-65535, got 'abc'"],
    [['--port=70000'], "--port must be an integer 0-65535, got '70000'"],
    [['--port', '1.5'], "--port must be an integer 0-65535, got '1.5'"],
    [['--port'], '--port needs a value (N)'],
    [['--port', '--json'], '--port needs a value (N)'],
    [['--seed', '-1'], "--seed must be an integer 0-4294967295, got '-1'"],
    [['--seed', '4294967296'], "--seed must be an integer 0-4294967295, got '4294967296'"],
    [['--symbols', 'BTCUSDT,BTCEUR'], "--symbols must be pairs in capitals quoted in USDT, BTC or ETH, such as BTCUSDT, got 'BTCEUR'"],
    [['--symbols', 'BTCUSDT,'], "--symbols must be a comma-separated list of pairs such as BTCUSDT,ETHUSDT, got 'BTCUSDT,'"],
    [['--api-key-header', 'X Key'], "--api-key-header must be an HTTP header name, got 'X Key'"],
    [['--host', 'a b'], "--host must be an interface name or address, got 'a b'"],
    [['--frobnicate'], "unknown option '--frobnicate'"],
    [['-x'], "unknown option '-x'"],
    [['--port', '0', 'extra'], "unexpected argument 'extra' (options start with --)"],
    [['--json=yes'], '--json takes no value'],
    [['--port', `${'9'.repeat(50)}`], `--port must be an integer 0-65535, got '${'9'.repeat(40)}…'`],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(parseCliArgs(argv, {})).toEqual({ kind: 'usageError', message });
  });

  it.each([
    ['--control-token', 'top secret value'],
    ['--api-key', 'key with spaces'],
    ['--secret-key', ''],
  ])('never repeats the rejected value of %s', (name, value) => {
    const command = parseCliArgs([`${name}=${value}`], {});
    expect(command).toEqual({ kind: 'usageError', message: expect.stringContaining(`got ${value.length} characters (not shown)`) });
    if (value !== '') expect(JSON.stringify(command)).not.toContain(value);
  });

  it(`takes the control token from ${CONTROL_TOKEN_ENV} when --control-token is absent`, () => {
    expect(parseCliArgs([], { [CONTROL_TOKEN_ENV]: 'from-env' })).toMatchObject({ options: { controlToken: 'from-env' } });
    expect(parseCliArgs(['--control-token', 'flag'], { [CONTROL_TOKEN_ENV]: 'from-env' })).toMatchObject({ options: { controlToken: 'flag' } });
    expect(parseCliArgs([], { [CONTROL_TOKEN_ENV]: '' })).toEqual({ kind: 'run', options: {}, json: false });
  });

  it(`rejects an unusable ${CONTROL_TOKEN_ENV} without repeating it`, () => {
    const command = parseCliArgs([], { [CONTROL_TOKEN_ENV]: 'has space' });
    expect(command).toEqual({ kind: 'usageError', message: `${CONTROL_TOKEN_ENV} must be visible ASCII characters without spaces` });
  });
});

describe('parseCliArgs: --recording', () => {
  it('takes a recording and its speed, kept beside the simulator options', () => {
    expect(parseCliArgs(['--recording', './rec', '--recording-speed', '60', '--port', '0'], {})).toEqual({
      kind: 'run',
      options: { port: 0 },
      json: false,
      recording: { path: './rec', speed: 60 },
    });
    expect(parseCliArgs(['--recording=./rec'], {})).toEqual({ kind: 'run', options: {}, json: false, recording: { path: './rec', speed: 1 } });
  });

  it.each([
    [['--recording-speed', '0', '--recording', 'r'], "--recording-speed must be a positive number up to 1000000 (recorded seconds per second), got '0'"],
    [['--recording-speed', 'fast', '--recording', 'r'], "--recording-speed must be a positive number up to 1000000 (recorded seconds per second), got 'fast'"],
    [['--recording-speed', '2'], '--recording-speed needs --recording DIR'],
    [['--recording'], '--recording needs a value (DIR)'],
  ])('%j is a usage error', (argv, message) => {
    expect(parseCliArgs(argv, {})).toEqual({ kind: 'usageError', message });
  });
});

describe('helpText', () => {
  const help = helpText();

  it('starts with the usage line and ends with the exit codes', () => {
    expect(help.split('\n')[0]).toBe(`Usage: ${CLI_NAME} [options]`);
    expect(help.trimEnd().split('\n').pop()).toBe('Exit codes: 0 stopped by a signal (or --help), 1 could not start, 2 bad option.');
  });

  it('lists every option the parser takes, with its placeholder and its default', () => {
    for (const [option, shown] of [
      ['--port', '--port N'],
      ['--symbols', '--symbols A,B'],
      ['--json', '--json'],
      ['--api-key-header', '--api-key-header NAME'],
    ] as const) {
      const line = help.split('\n').find((l) => l.trimStart().startsWith(`${shown} `));
      expect({ option, line: line !== undefined && /\(default: .+\)$/.test(line) }).toEqual({ option, line: true });
    }
    expect(help).toContain('-h, --help');
    expect(help).toContain(CONTROL_TOKEN_ENV);
  });

  it('aligns the descriptions in one column', () => {
    const optionLines = help.split('\n').filter((l) => /^ {2}-/.test(l));
    const columns = new Set(optionLines.map((l) => /^ {2}\S+(?: \S+)? +/.exec(l)![0].length));
    expect(optionLines).toHaveLength(14);
    expect(columns.size).toBe(1);
  });
});
