import { forgetCredentials } from './forget-credentials.js';

describe('forgetCredentials (an open stream keeps no key or token)', () => {
  it('drops the key and the bearer token from the parsed headers and the raw pairs, and nothing else', () => {
    const request = {
      headers: {
        authorization: 'Bearer eyJ.secret',
        'x-api-key': 'nk_live_secret',
        accept: 'text/event-stream',
      } as Record<string, string | undefined>,
      rawHeaders: [
        'Authorization',
        'Bearer eyJ.secret',
        'Accept',
        'text/event-stream',
        'X-Api-Key',
        'nk_live_secret',
        'x-api-key',
        'nk_second',
      ],
    };
    forgetCredentials(request);
    expect(request.headers).toEqual({ accept: 'text/event-stream' });
    expect(request.rawHeaders).toEqual(['Accept', 'text/event-stream']);
    expect(JSON.stringify(request)).not.toMatch(/secret|nk_second/);
  });

  it('leaves a request without credentials as it was', () => {
    const request = { headers: { accept: '*/*' }, rawHeaders: ['Accept', '*/*'] };
    forgetCredentials(request);
    expect(request).toEqual({ headers: { accept: '*/*' }, rawHeaders: ['Accept', '*/*'] });
  });
});
