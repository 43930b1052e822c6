import { describeValidationErrors } from './validation.pipe.js';

describe('describeValidationErrors', () => {
  it('names nested fields with their path and turns whitelist errors into advice', () => {
    const lines = describeValidationErrors([
      { property: 'bogus', constraints: { whitelistValidation: 'property bogus should not exist' }, children: [] },
      {
        property: 'tags',
        children: [
          {
            property: '0',
            children: [{ property: 'name', constraints: { isString: 'name must be a string' }, children: [] }],
          },
        ],
      },
    ]);
    expect(lines).toEqual([
      'bogus is not a field this route accepts; remove it (the fields are listed at /docs)',
      'tags[0].name must be a string',
    ]);
  });

  it('keeps the element a validator names itself, under the field’s path', () => {
    const lines = describeValidationErrors([
      { property: 'subscribers', constraints: { isSubscriberIdList: 'subscribers[2] must be a string' }, children: [] },
      {
        property: 'data',
        children: [{ property: 'ids', constraints: { isSubscriberIdList: 'ids[0] must be a string' }, children: [] }],
      },
    ]);
    expect(lines).toEqual(['subscribers[2] must be a string', 'data.ids[0] must be a string']);
  });
});
