import { TELNYX_KEY, TELNYX_PROFILE, TelnyxFake } from './fakes/telnyx-fake.js';
import { TWILIO_SID, TWILIO_TOKEN, TwilioFake } from './fakes/twilio-fake.js';
import { useProviderApp } from './helpers/provider-app.js';

/** SMS failover between two real protocols: Twilio (primary) → Telnyx (SMS_FALLBACK_PROVIDER). */
describe('SMS failover: Twilio → Telnyx', () => {
  const twilio = new TwilioFake();
  const telnyx = new TelnyxFake();
  const app = useProviderApp({
    fakes: [twilio, telnyx],
    env: () => ({
      SMS_PROVIDER: 'twilio',
      SMS_FALLBACK_PROVIDER: 'telnyx',
      SMS_FROM: '+15005550006',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_API_BASE: twilio.url,
      TELNYX_API_KEY: TELNYX_KEY,
      TELNYX_MESSAGING_PROFILE_ID: TELNYX_PROFILE,
      TELNYX_API_BASE: telnyx.url,
    }),
  });
  const { job } = app;
  const send = (to: string) => app.send({ channels: ['sms'], to, body: 'hi' });

  it('a STOP (permanent) never fails over; a Twilio 500 goes to Telnyx at once', async () => {
    const stop = await send('+15005550004');
    await app.t.worker.drainOnce();
    expect(await job(stop)).toMatchObject({ status: 'failed', provider: 'twilio' });
    expect(telnyx.requests).toHaveLength(0);

    const down = await send('+15005550500');
    await app.t.worker.drainOnce();
    expect(await job(down)).toMatchObject({ status: 'sent', provider: 'telnyx', attempts: 1 });
    expect(twilio.requests.map((r) => r.body.To)).toEqual(['+15005550004', '+15005550500']);
    expect(telnyx.requests.map((r) => r.body.to)).toEqual(['+15005550500']);
  });
});
