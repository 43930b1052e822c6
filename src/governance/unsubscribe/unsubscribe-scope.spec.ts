import { requestedScope } from './unsubscribe-scope.js';

describe('the scope an unsubscribe POST asks for', () => {
  it('follows the link without ?scope= (the RFC 8058 one-click POST): its topic, else all marketing', () => {
    expect(requestedScope(undefined, { topic: 'tips' })).toEqual({ scope: 'topic' });
    expect(requestedScope('', { topic: null })).toEqual({ scope: 'marketing' });
  });

  it('takes the button’s scope', () => {
    expect(requestedScope('topic', { topic: 'tips' })).toEqual({ scope: 'topic' });
    expect(requestedScope('marketing', { topic: 'tips' })).toEqual({ scope: 'marketing' });
    expect(requestedScope('marketing', { topic: null })).toEqual({ scope: 'marketing' });
  });

  it('names the field and the fix for a choice the link does not offer', () => {
    expect(requestedScope('topic', { topic: null })).toEqual({
      error: 'scope=topic needs a link signed for a topic, and this one has none: use scope=marketing.',
    });
    expect(requestedScope('all', { topic: 'tips' })).toEqual({ error: 'scope must be "topic" or "marketing".' });
    expect(requestedScope('all', { topic: null })).toEqual({ error: 'scope must be "marketing".' });
  });
});
