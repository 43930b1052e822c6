import { normaliseAddress } from './suppression-address.js';

describe('normaliseAddress', () => {
  it('lower-cases and trims email addresses', () => {
    expect(normaliseAddress('email', '  Jane.Doe@Example.COM ')).toEqual({ ok: true, address: 'jane.doe@example.com' });
    expect(normaliseAddress('email', 'jane@')).toMatchObject({ ok: false });
  });
  it('brings phone numbers to E.164 and refuses national forms', () => {
    expect(normaliseAddress('sms', '+33 (6) 12-34.56.78')).toEqual({ ok: true, address: '+33612345678' });
    expect(normaliseAddress('whatsapp', 'whatsapp:+14155550100')).toEqual({ ok: true, address: '+14155550100' });
    expect(normaliseAddress('sms', '0612345678')).toMatchObject({ ok: false });
  });
  it('keeps chat ids and subscriber ids as given', () => {
    expect(normaliseAddress('slack', 'C0ABC')).toEqual({ ok: true, address: 'C0ABC' });
    expect(normaliseAddress('push', 'User_1')).toEqual({ ok: true, address: 'User_1' });
    expect(normaliseAddress('telegram', '   ')).toMatchObject({ ok: false });
  });
});
