import { setFlagsFromString } from 'node:v8';
import { openRedis } from '../../lib/redis/internal/openRedis';

// ioredis declares `class VerbatimString extends String`, which leaves `String.prototype` in V8's dictionary mode: every
// string method call of optimized code then goes through a generic lookup (a consumer's frame parser paid it on every
// character). Opening a client puts it back in fast mode (`fastStringMethods`).
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

describe('a Redis client of ex-streams/redis', () => {
  it('leaves String.prototype in fast mode, its methods unchanged', () => {
    const methods = Object.getOwnPropertyNames(String.prototype).sort();
    const client = openRedis('redis://127.0.0.1:1', 'ex-streams-test');
    client.on('error', () => undefined);
    client.disconnect();
    expect(hasFastProperties(String.prototype)).toBe(true);
    expect(Object.getOwnPropertyNames(String.prototype).sort()).toEqual(methods);
    expect('abc'.charCodeAt(1)).toBe(98);
  });
});
