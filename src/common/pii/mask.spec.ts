import { maskEmail, maskRecipient } from './mask.js';

describe('masking', () => {
  it('keeps the first letter and the domain of an email', () =>
    expect(maskEmail('jane@example.com')).toBe('j***@example.com'));
  it('hides short local parts entirely', () => expect(maskEmail('jo@example.com')).toBe('**@example.com'));
  it('keeps the last four digits of a phone', () => expect(maskRecipient('+33612345678')).toBe('***5678'));
  it('shortens tokens and URLs', () =>
    expect(maskRecipient('https://hooks.slack.com/services/T0/B0/secret')).toBe('https://...'));
  it('leaves in-app subscriber ids as they are', () => expect(maskRecipient('user_123', 'in_app')).toBe('user_123'));
});
