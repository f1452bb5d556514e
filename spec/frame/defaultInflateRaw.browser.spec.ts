/**
 * The browser build has no default zip inflater (lib/frame/defaultInflateRaw.browser.ts replaces
 * defaultInflateRaw.ts there, see scripts/browser-variants.js): fflate is bundled only by an app that imports
 * `inflateRaw` from `ex-streams/zip`. Here the browser variant is swapped in with `jest.mock`, as the build
 * does, and the paths that meet a zip frame are run: `decodeFrame` (a `DecodeError` saying what to import) and
 * `connection` (a `ConfigError` ending the stream at the first binary frame; text frames unaffected).
 */
import * as E from 'fp-ts/Either';
import { map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConfigError } from '../../lib/errors';
import type { ConnectionConfig } from '../../lib/socket/connection';
import { decodeFrame } from '../../lib/frame/decodeFrame';
import * as universal from '../../lib/frame/defaultInflateRaw';
import * as browser from '../../lib/frame/defaultInflateRaw.browser';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';
import { inflateRaw } from '../../lib/zip/inflateRaw';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';
import { fakeConnection } from '../helpers/fakeConnection';
import { zipText } from '../helpers/zipFrames';

jest.mock('../../lib/frame/defaultInflateRaw', () => jest.requireActual('../../lib/frame/defaultInflateRaw.browser'));

// The variant can stand in for the module: same exports, same types.
const sameShape: typeof universal = browser;

const MISSING = new ConfigError(
  'inflateRaw',
  "is needed for binary (zip) frames in browsers: import { inflateRaw } from 'ex-streams/zip' and pass it as connection: { inflateRaw } (or to decodeFrame)",
);

describe('defaultInflateRaw (browser build)', () => {
  it('is none, and is what the library reads here (the jest.mock stands for the build)', () => {
    expect(sameShape.defaultInflateRaw).toBeUndefined();
    expect(jest.requireMock<typeof universal>('../../lib/frame/defaultInflateRaw').defaultInflateRaw).toBeUndefined();
  });

  describe('decodeFrame', () => {
    it('refuses a deflated zip frame as kind zip, naming the import', () => {
      const result = decodeFrame(zipText('{"a":1}'));
      expect(E.isLeft(result) && result.left).toMatchObject({ name: 'DecodeError', kind: 'zip' });
      expect(E.isLeft(result) && result.left.message).toMatch(/needs an inflater: inflateRaw is needed .* import \{ inflateRaw \} from 'ex-streams\/zip'/);
    });

    it("inflates with ex-streams/zip's inflateRaw, and text frames need nothing", () => {
      expect(decodeFrame(zipText('{"a":1}'), { inflateRaw })).toEqual(E.right({ a: 1 }));
      expect(decodeFrame('{"a":1}')).toEqual(E.right({ a: 1 }));
    });
  });

  describe('connection', () => {
    let testScheduler: TestScheduler;
    beforeEach(() => {
      testScheduler = errorAwareTestScheduler();
    });

    const setup = (config: Partial<ConnectionConfig>) => fakeConnection(testScheduler, config);

    it('ends with a ConfigError naming the import at the first binary frame, not retried; the socket closes (1000)', () => {
      let fake: ReturnType<typeof fakeWebSocket> | undefined;
      const statuses: string[] = [];
      testScheduler.run(({ expectObservable }) => {
        const made = setup({});
        fake = made.fake;
        made.conn.status$.pipe(map((s) => `${testScheduler.now()} ${s.type}`)).subscribe((s) => statuses.push(s));
        made.fake.at(3, (s) => s.receive('{"a":1}'));
        made.fake.at(5, (s) => s.receive(zipText('{"b":2}')));
        expectObservable(made.conn.messages$, '20ms !').toBe('3ms a-#', { a: { a: 1 } }, MISSING);
      });
      expect(statuses).toEqual(['0 closed', '0 connecting', '1 open', '5 closed']);
      expect(fake?.sockets).toHaveLength(1);
      expect(fake?.latest().closedByClient).toEqual({ code: 1000 });
    });

    it("decodes zip frames with ex-streams/zip's inflateRaw", () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({ inflateRaw });
        fake.at(5, (s) => s.receive(zipText('{"b":2}')));
        expectObservable(conn.messages$, '10ms !').toBe('5ms a', { a: { b: 2 } });
        expectObservable(conn.errors$, '10ms !').toBe('');
      });
    });
  });
});
