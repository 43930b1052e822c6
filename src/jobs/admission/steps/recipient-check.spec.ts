import { checkRecipient } from './recipient-check.js';

describe('admission: recipient syntax per channel', () => {
  it('takes an email address as given (trimmed) and refuses what is not one', () => {
    expect(checkRecipient('email', ' Jane@Example.com ')).toEqual({ ok: true, address: 'Jane@Example.com' });
    for (const bad of ['not-an-email', 'a@b', 'two words@example.com', ''])
      expect(checkRecipient('email', bad).ok).toBe(false);
  });

  it('stores phones in E.164 and refuses the rest, for SMS and WhatsApp', () => {
    expect(checkRecipient('sms', '+33 6 12-34.56 78')).toEqual({ ok: true, address: '+33612345678' });
    expect(checkRecipient('whatsapp', 'whatsapp:+15551234567')).toEqual({ ok: true, address: '+15551234567' });
    for (const bad of ['0612345678', '+0612345678', 'a@example.com', '+1']) {
      const check = checkRecipient('sms', bad);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.problem).toContain('E.164');
    }
  });

  it('asks the connector for the rest (a chat id, a webhook host), and passes what it accepts', () => {
    const telegram = (a: string) => (/^-?\d+$/.test(a) ? undefined : 'is not a chat id');
    expect(checkRecipient('telegram', '-1001234', telegram)).toEqual({ ok: true, address: '-1001234' });
    expect(checkRecipient('telegram', 'general', telegram)).toEqual({ ok: false, problem: 'is not a chat id' });
    expect(checkRecipient('slack', 'C0123456')).toEqual({ ok: true, address: 'C0123456' });
  });
});
