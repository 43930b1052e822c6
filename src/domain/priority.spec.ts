import { isCampaign, parsePriority } from './priority.js';

describe('parsePriority', () => {
  it.each([
    ['critical', 10],
    ['HIGH', 30],
    [' normal ', 50],
    ['low', 70],
    ['bulk', 80],
    [0, 0],
    [100, 100],
    ['42', 42],
  ])('%p → %p', (input, expected) => expect(parsePriority(input)).toBe(expected));

  it.each(['urgent', '', -1, 101, 3.5, '1e2', null, true, {}])('%p is invalid', (input) =>
    expect(parsePriority(input)).toBeUndefined(),
  );
});

describe('isCampaign', () => {
  it('is true for a category tag naming a campaign', () => {
    expect(isCampaign([{ name: 'category', value: 'Newsletter' }])).toBe(true);
  });
  it('is false for other tags', () => {
    expect(
      isCampaign([
        { name: 'category', value: 'order' },
        { name: 'campaign', value: 'x' },
      ]),
    ).toBe(false);
    expect(isCampaign(undefined)).toBe(false);
  });
});
