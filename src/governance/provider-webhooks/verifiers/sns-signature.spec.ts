import { createSign, generateKeyPairSync } from 'node:crypto';
import { SnsFake } from '../../../../test/fakes/sns-signer.js';
import { snsMessage, snsStringToSign, snsUrlAllowed, verifySnsSignature } from './sns-signature.js';

describe('SNS signatures', () => {
  const sns = new SnsFake();
  beforeAll(() => sns.start());
  afterAll(() => sns.stop());

  it('builds the canonical string AWS documents (Subject skipped when absent)', () => {
    const m = snsMessage({
      Type: 'Notification',
      MessageId: 'id',
      TopicArn: 'arn',
      Message: 'hi',
      Timestamp: 't',
      SignatureVersion: '1',
      Signature: 's',
      SigningCertURL: 'u',
    });
    expect(snsStringToSign(m)).toBe('Message\nhi\nMessageId\nid\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n');
    expect(snsStringToSign({ ...m, Subject: 'sub' })).toContain('MessageId\nid\nSubject\nsub\nTimestamp');
    const sub = { ...m, Type: 'SubscriptionConfirmation', SubscribeURL: 'https://x', Token: 'tok' };
    expect(snsStringToSign(sub)).toBe(
      'Message\nhi\nMessageId\nid\nSubscribeURL\nhttps://x\nTimestamp\nt\nToken\ntok\nTopicArn\narn\nType\nSubscriptionConfirmation\n',
    );
  });

  it('accepts v1 (SHA1) and v2 (SHA256) signatures, with and without Subject', () => {
    expect(() => verifySnsSignature(sns.message({ Message: '{"a":1}' }, '1'), sns.cert)).not.toThrow();
    expect(() =>
      verifySnsSignature(
        sns.message({ Message: '{"a":1}', Subject: 'Amazon SES Email Event Notification' }, '2'),
        sns.cert,
      ),
    ).not.toThrow();
    expect(() =>
      verifySnsSignature(
        sns.message({ Type: 'SubscriptionConfirmation', SubscribeURL: `${sns.base}confirm`, Token: 't' }, '1'),
        sns.cert,
      ),
    ).not.toThrow();
  });

  it('refuses a tampered message, a changed topic, another key, a version mismatch and an unknown version', () => {
    const m = sns.message({ Message: '{"a":1}' });
    expect(() => verifySnsSignature({ ...m, Message: '{"a":2}' }, sns.cert)).toThrow(/does not match/);
    expect(() => verifySnsSignature({ ...m, TopicArn: 'arn:aws:sns:eu-west-1:1:other' }, sns.cert)).toThrow(
      /does not match/,
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    expect(() => verifySnsSignature(sns.message({}, '1', other), sns.cert)).toThrow(/does not match/);
    expect(() => verifySnsSignature({ ...m, SignatureVersion: '2' }, sns.cert)).toThrow(/does not match/);
    expect(() => verifySnsSignature({ ...m, SignatureVersion: '3' }, sns.cert)).toThrow(/not 1 or 2/);
    expect(() =>
      verifySnsSignature({ ...m, Signature: createSign('RSA-SHA1').update('x').sign(other, 'base64') }, sns.cert),
    ).toThrow(/does not match/);
  });

  it('refuses an expired certificate and a missing field', () => {
    const m = sns.message({});
    expect(() => verifySnsSignature(m, sns.cert, new Date(Date.now() + 10 * 86_400_000))).toThrow(/not valid now/);
    expect(() => verifySnsSignature(m, 'not a certificate')).toThrow(/not a valid X.509/);
    expect(() => snsMessage({ ...m, Signature: undefined })).toThrow(/`Signature` is missing/);
  });

  it('fetches certificates only from https sns.<region>.amazonaws.com .pem URLs (or the explicit test base)', () => {
    const ok = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-01d088a6f77103d0fe307c0069e40ed6.pem';
    expect(snsUrlAllowed(ok, 'certificate')).toBe(true);
    expect(snsUrlAllowed('https://sns.cn-north-1.amazonaws.com.cn/x.pem', 'certificate')).toBe(true);
    for (const bad of [
      ok.replace('https:', 'http:'),
      'https://sns.eu-west-1.amazonaws.com.evil.example/x.pem',
      'https://evil.example/sns.eu-west-1.amazonaws.com/x.pem',
      'https://sns.eu-west-1.amazonaws.com:8443/x.pem',
      'https://user:pw@sns.eu-west-1.amazonaws.com/x.pem',
      'https://sns.eu-west-1.amazonaws.com/x.txt',
      'https://s3.amazonaws.com/x.pem',
      'https://169.254.169.254/latest/meta-data.pem',
      'not a url',
    ])
      expect([bad, snsUrlAllowed(bad, 'certificate')]).toEqual([bad, false]);
    expect(snsUrlAllowed('https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=x', 'subscribe')).toBe(
      true,
    );
    expect(snsUrlAllowed('http://127.0.0.1:9/x.pem', 'certificate')).toBe(false);
    expect(snsUrlAllowed('http://127.0.0.1:9/x.pem', 'certificate', 'http://127.0.0.1:9/')).toBe(true);
  });
});
