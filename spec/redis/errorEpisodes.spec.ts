import { ErrorEpisodes } from '../../lib/redis/internal/errorEpisodes';
import { NOT_CONNECTED_REASON, RedisRelayError, relayError } from '../../lib/redis/redisRelayError';

describe('relayError', () => {
  it('gives the client library\'s words for a missing connection as one plain reason', () => {
    for (const text of [
      "Stream isn't writeable and enableOfflineQueue options is false",
      'Connection is closed.',
      'Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.',
      'connect ECONNREFUSED 127.0.0.1:6379',
      'read ECONNRESET',
    ]) {
      const error = relayError('xread', new Error(text), []);
      expect(error).toBeInstanceOf(RedisRelayError);
      expect(error.reason).toBe(NOT_CONNECTED_REASON);
      expect(error.message).toBe(`redis xread: ${NOT_CONNECTED_REASON}`);
    }
  });

  it("keeps Redis's own answers, redacted", () => {
    const error = relayError('connect', new Error('WRONGPASS invalid username-password pair for redis://u:pw-9@h:1'), ['pw-9']);
    expect(error.reason).toBe('WRONGPASS invalid username-password pair for redis://***@h:1');
  });
});

describe('ErrorEpisodes', () => {
  it('says each reason once until something works again', () => {
    const said: string[] = [];
    const episodes = new ErrorEpisodes((e) => said.push(e.message));
    for (let i = 0; i < 7; i++) episodes.report(relayError(i % 2 === 0 ? 'xread' : 'hget', new Error("Stream isn't writeable and enableOfflineQueue options is false"), []));
    episodes.report(new RedisRelayError('xadd', 'OOM command not allowed'));
    expect(said).toEqual([`redis xread: ${NOT_CONNECTED_REASON}`, 'redis xadd: OOM command not allowed']);
    episodes.recovered();
    episodes.report(relayError('xread', new Error('Connection is closed.'), []));
    expect(said).toHaveLength(3);
    // one name for several reasons (the gateway's "connection lost" and its reconnect attempts' refusals)
    episodes.report(new RedisRelayError('connection', 'lost; reconnecting'), NOT_CONNECTED_REASON);
    expect(said).toHaveLength(3);
  });
});
