import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { DecodeError } from '../../lib/errors';
import { decodeBody, parseBody, redactDecodeError } from '../../lib/rest/parseBody';

const SECRET = 'lIsTeNkEy9876543210';

describe('parseBody', () => {
  it('is undefined for an empty or blank body', () => {
    expect(parseBody('', [])).toEqual(E.right(undefined));
    expect(parseBody(' \n', [])).toEqual(E.right(undefined));
  });

  it('parses JSON, keeping 64-bit ids exact', () => {
    const parsed = parseBody('{"orderId":1234567890123456789,"price":"1.5"}', []);
    expect(parsed).toEqual(E.right({ orderId: '1234567890123456789', price: '1.5' }));
  });

  it('fails with a json DecodeError that does not carry the secret', () => {
    const parsed = parseBody(`{"listenKey":"${SECRET}"`, [SECRET, undefined]);
    expect(E.isLeft(parsed)).toBe(true);
    if (E.isRight(parsed)) return;
    expect(parsed.left).toBeInstanceOf(DecodeError);
    expect(parsed.left.kind).toBe('json');
    expect(JSON.stringify([parsed.left.message, parsed.left.paths, parsed.left.raw])).not.toContain(SECRET);
  });
});

describe('decodeBody', () => {
  const Key = t.type({ listenKey: t.string }, 'ListenKey');

  it('returns the parsed value without a codec, the decoded one with it', () => {
    expect(decodeBody('[1,2]', undefined, [])).toEqual(E.right([1, 2]));
    expect(decodeBody('{"listenKey":"k","extra":1}', Key, [])).toEqual(E.right({ listenKey: 'k', extra: 1 }));
  });

  it('redacts a codec failure: message, paths and raw text', () => {
    const decoded = decodeBody(`{"listenKey":1,"note":"${SECRET}"}`, Key, [SECRET]);
    expect(E.isLeft(decoded)).toBe(true);
    if (E.isRight(decoded)) return;
    expect(decoded.left.kind).not.toBe('json');
    expect(decoded.left.paths.join('\n')).toContain('listenKey');
    expect(decoded.left.raw).toBeDefined();
    expect(JSON.stringify([decoded.left.message, decoded.left.paths, decoded.left.raw])).not.toContain(SECRET);
  });
});

describe('redactDecodeError', () => {
  it('replaces the secrets in every text and keeps the kind', () => {
    const error = new DecodeError('codec', `bad ${SECRET}`, [`at ${SECRET}`], `{"k":"${SECRET}"}`);
    const clean = redactDecodeError(error, [SECRET]);
    expect(clean.kind).toBe('codec');
    expect(JSON.stringify([clean.message, clean.paths, clean.raw])).not.toContain(SECRET);
    expect(clean.paths).toHaveLength(1);
    expect(redactDecodeError(new DecodeError('codec', 'm', []), [SECRET]).raw).toBeUndefined();
  });
});
