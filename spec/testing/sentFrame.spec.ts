import { classifyFrame, matchesFilter, type SentFrame } from '../../lib/testing/sentFrame';

describe('classifyFrame', () => {
  it.each<[string, string]>([
    ['{"event":"sub","topic":"trade","symbol":"BTCUSDT"}', 'sub'],
    ['{"event":"cancel","topic":"trade"}', 'cancel'],
    ['{"event":"cancel_all"}', 'cancel_all'],
    ['{"ping":1700000000000}', 'ping'],
    ['{"pong":1700000000000}', 'pong'],
    ['{"ping":0,"event":"sub"}', 'ping'],
    ['{"event":"other"}', 'other'],
    ['{}', 'other'],
    ['[1,2]', 'other'],
    ['"text"', 'other'],
  ])('%s is %s, parsed', (text, kind) => {
    expect(classifyFrame(text)).toEqual({ kind, frame: JSON.parse(text) });
  });

  it('keeps text that is not JSON as it is, kind other', () => {
    expect(classifyFrame('not json {')).toEqual({ kind: 'other', frame: 'not json {' });
  });
});

describe('matchesFilter', () => {
  const sent: SentFrame = {
    time: 10,
    stream: 'public',
    connection: 2,
    kind: 'sub',
    frame: { event: 'sub', symbol: 'BTCUSDT', topic: 'trade' },
    text: '{"event":"sub","symbol":"BTCUSDT","topic":"trade"}',
  };

  it('matches with an empty filter, and with every field equal', () => {
    expect(matchesFilter(sent, {})).toBe(true);
    expect(matchesFilter(sent, { stream: 'public', kind: 'sub', connection: 2, symbol: 'BTCUSDT', topic: 'trade' })).toBe(true);
  });

  it.each([
    ['stream', { stream: 'private' as const }],
    ['kind', { kind: 'cancel' as const }],
    ['connection', { connection: 1 }],
    ['symbol', { symbol: 'ETHUSDT' }],
    ['topic', { topic: 'depth' }],
  ])('fails on a different %s', (_, filter) => {
    expect(matchesFilter(sent, filter)).toBe(false);
  });

  it('fails a symbol or topic filter for a frame that is not an object', () => {
    const text: SentFrame = { ...sent, kind: 'other', frame: 'not json' };
    expect(matchesFilter(text, { kind: 'other' })).toBe(true);
    expect(matchesFilter(text, { symbol: 'BTCUSDT' })).toBe(false);
    expect(matchesFilter(text, { topic: 'trade' })).toBe(false);
  });
});
