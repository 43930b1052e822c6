import { describeValidationErrors } from './validation.pipe.js';

describe('describeValidationErrors', () => {
  it('names nested fields with their path and turns whitelist errors into advice', () => {
    const lines = describeValidationErrors([
      { property: 'bogus', constraints: { whitelistValidation: 'property bogus should not exist' }, children: [] },
      {
        property: 'tags',
        children: [{ property: '0', children: [{ property: 'name', constraints: { isString: 'name must be a string' }, children: [] }] }],
      },
    ]);
    expect(lines).toEqual(['bogus is not a field this route accepts; remove it (the fields are listed at /docs)', 'tags[0].name must be a string']);
  });
});
