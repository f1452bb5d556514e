import fc from 'fast-check';
import { elementTexts } from '../../../lib/user/internal/elementTexts';

describe('elementTexts', () => {
  it('gives the text of each element of an array, in order, whitespace around it dropped', () => {
    expect(elementTexts('[{"e":"a"}, {"e":"b","x":[1,{"y":"]"}]} ,"s\\"]",3]')).toEqual(['{"e":"a"}', '{"e":"b","x":[1,{"y":"]"}]}', '"s\\"]"', '3']);
    expect(elementTexts(' [ ] ')).toEqual([]);
    expect(elementTexts(' {"e":""} ')).toEqual(['{"e":""}']);
  });

  it('each text parses to its element, whatever the values and the whitespace (generated)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 6 }), fc.constantFrom(undefined, 1, 2, '\t'), (elements, space) => {
        const text = JSON.stringify(elements, null, space);
        const texts = elementTexts(text);
        expect(texts.map((t) => JSON.parse(t) as unknown)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });
});
