import { keyedUrlProblem } from '../../../lib/user/internal/keyedUrl';

const KEY = 'a'.repeat(60);

describe('keyedUrlProblem', () => {
  it('accepts base addresses, ports and paths included', () => {
    for (const url of ['wss://stream.example.com/api/v1/ws', 'ws://127.0.0.1:8080/api/v1/ws', 'ws://localhost:9/ws/', 'wss://h/ws/short', 'ws://h:1/a/b']) {
      expect(keyedUrlProblem(url)).toBeUndefined();
    }
  });

  it('refuses a url holding a key placeholder, plain or percent-encoded', () => {
    for (const url of ['wss://h/ws/{listenKey}', 'wss://h/ws/<listenKey>', 'wss://h/ws/:listenKey', 'wss://h/ws/%7BlistenKey%7D', 'wss://h/ws/%3Ckey%3E', 'wss://h/{x}/ws']) {
      expect(keyedUrlProblem(url)).toMatch(/^holds a listen-key placeholder: pass the base address/);
    }
  });

  it('refuses a url that already ends in what looks like a key, and never repeats the url', () => {
    for (const url of [`wss://h/api/v1/ws/${KEY}`, `wss://h/ws/${KEY}/`, 'wss://h/ws/0123456789abcdef']) {
      const problem = keyedUrlProblem(url);
      expect(problem).toMatch(/^seems to end in a listen key/);
      expect(problem).not.toContain(KEY.slice(0, 16));
    }
  });
});
