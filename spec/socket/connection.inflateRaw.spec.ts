import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConfigError, DecodeError } from '../../lib/errors';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import { connection, type ConnectionConfig } from '../../lib/socket/connection';
import type { RawInflater } from '../../lib/frame/frameLimits';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';
import { fakeConnection } from '../helpers/fakeConnection';
import { withDeclaredSize, zipBomb, zipText } from '../helpers/zipFrames';

describe('connection', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  const setup = (config: Partial<ConnectionConfig>) => fakeConnection(testScheduler, config);

  describe('inflateRaw', () => {
    it('inflates zip frames with the injected inflater, with the same guard rails', () => {
      const sizes: number[] = [];
      const counting: RawInflater = (deflated, size) => {
        sizes.push(size);
        return nodeInflateRaw(deflated, size);
      };
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({ inflateRaw: counting, maxInflatedBytes: 1 << 20 });
        fake.at(5, (s) => s.receive(zipText('{"a":1}')));
        fake.at(6, (s) => s.receive(zipBomb(2))); // declares 2 MiB: refused before inflating
        fake.at(7, (s) => s.receive(withDeclaredSize(zipBomb(1), 100))); // lies: stopped by the inflater
        fake.at(8, (s) => s.receive(zipText('[2]')));
        expectObservable(conn.messages$, '10ms !').toBe('5ms a--b', { a: { a: 1 }, b: [2] });
        const kinds$ = conn.errors$.pipe(map((e) => (e instanceof DecodeError ? e.kind : e.name)));
        expectObservable(kinds$, '10ms !').toBe('6ms ab', { a: 'inflated-too-large', b: 'inflated-too-large' });
      });
      expect(sizes).toEqual([7, 100, 3]);
    });

    it('uses fflate when none is given', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({});
        fake.at(5, (s) => s.receive(zipText('{"a":1}')));
        expectObservable(conn.messages$, '10ms !').toBe('5ms a', { a: { a: 1 } });
      });
    });

    it('must be a function (ConfigError)', () => {
      const url = 'ws://127.0.0.1/quote/ws/v1';
      const notAFunction = 'zlib' as unknown as RawInflater;
      expect(() => connection({ url, inflateRaw: notAFunction })).toThrow(ConfigError);
      expect(() => connection({ url, inflateRaw: notAFunction })).toThrow('inflateRaw must be a function');
      expect(() => connection({ url, inflateRaw: nodeInflateRaw })).not.toThrow();
    });
  });
});
