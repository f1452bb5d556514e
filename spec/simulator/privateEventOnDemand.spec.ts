import { privateEventOnDemand } from '../../lib/simulator/streams/privateEventOnDemand';

describe('privateEventOnDemand', () => {
  it('keeps given text exactly, records its e and its integer E (else the push time)', () => {
    expect(privateEventOnDemand(' {"e":"outboundCustodyAccountInfo","E":"17","B":[]} ', 5)).toEqual({
      kind: 'other',
      E: 17,
      id: 'outboundCustodyAccountInfo',
      json: '{"e":"outboundCustodyAccountInfo","E":"17","B":[]}',
    });
    expect(privateEventOnDemand({ e: '' }, 5)).toEqual({ kind: 'other', E: 5, id: '', json: '{"e":""}' });
  });

  it.each(['[1]', 'nope', '3'])('refuses text that is no JSON object: %s', (text) => {
    expect(() => privateEventOnDemand(text, 0)).toThrow('pushPrivateEvent needs an object, or the JSON text of one');
  });
});
