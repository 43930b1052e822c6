import { addressRefusal } from './address-policy.js';
import { assertPublicHttpUrl } from './public-url.js';
import { UnsafeUrlError } from './unsafe-url.error.js';

/**
 * IPv6 forms that carry an IPv4 address. Each is either judged as the IPv4 address it carries
 * (where the packet really goes there) or refused outright (deprecated or local-use forms no
 * webhook or push endpoint needs), whether it comes as a URL host (canonicalised to hex by the
 * URL parser) or from a resolver (glibc prints some of them with a dotted quad).
 */
describe('address policy: IPv6 with an embedded IPv4 address', () => {
  it.each([
    // IPv4-compatible ::/96 (RFC 4291 §2.5.5.1, deprecated): refused whatever it carries.
    ['::127.0.0.1', /IPv4-compatible/],
    ['::7f00:1', /IPv4-compatible/],
    ['::a00:1', /IPv4-compatible/],
    ['::8.8.8.8', /IPv4-compatible/],
    ['::808:808', /IPv4-compatible/],
    // IPv4-mapped ::ffff:0:0/96: the socket goes to the IPv4 address.
    ['::ffff:127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::ffff:7f00:1', /127\.0\.0\.1 is a loopback address/],
    ['::ffff:a9fe:a9fe', /169\.254\.169\.254 is a linkLocal address/],
    // IPv4-translated ::ffff:0:0:0/96 (RFC 6145).
    ['::ffff:0:7f00:1', /rfc6145/],
    // NAT64 well-known prefix 64:ff9b::/96: the translator sends to the embedded address.
    ['64:ff9b::7f00:1', /NAT64 .*127\.0\.0\.1 is a loopback address/],
    ['64:ff9b::a9fe:a9fe', /NAT64 .*169\.254\.169\.254 is a linkLocal address/],
    ['64:ff9b::10.0.0.1', /NAT64 .*10\.0\.0\.1 is a private address/],
    // NAT64 local-use 64:ff9b:1::/48 (RFC 8215): translates into the operator's own networks.
    ['64:ff9b:1::808:808', /local-use NAT64/],
    // 6to4 2002::/16 and Teredo 2001::/32: tunnels to an IPv4 address, deprecated.
    ['2002:7f00:1::1', /6to4/],
    ['2002:808:808::1', /6to4/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /teredo/],
    // ISATAP interface identifier (::0:5efe:a.b.c.d, ::200:5efe:a.b.c.d) under any prefix.
    ['2606:4700:1::5efe:7f00:1', /ISATAP .*127\.0\.0\.1 is a loopback address/],
    ['2606:4700:1::200:5efe:a00:1', /ISATAP .*10\.0\.0\.1 is a private address/],
    ['fe80::5efe:7f00:1', /linkLocal/],
    // Deprecated site-local fec0::/10.
    ['fec0::1', /deprecatedSiteLocal/],
  ])('refuses %s', (address, reason) => {
    expect(addressRefusal(address)).toMatch(reason);
    expect(addressRefusal(`[${address}]`)).toMatch(reason);
  });

  it('does not let allowLoopback open a loopback reached through a translator or a tunnel', () => {
    expect(addressRefusal('::ffff:127.0.0.1', { allowLoopback: true })).toBeUndefined();
    expect(addressRefusal('::1', { allowLoopback: true })).toBeUndefined();
    expect(addressRefusal('::127.0.0.1', { allowLoopback: true })).toMatch(/IPv4-compatible/);
    expect(addressRefusal('64:ff9b::7f00:1', { allowLoopback: true })).toMatch(/loopback/);
    expect(addressRefusal('2606:4700:1::5efe:7f00:1', { allowLoopback: true })).toMatch(/loopback/);
  });

  it.each([
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '::ffff:8.8.8.8',
    '2606:4700:1::5efe:808:808',
    '2606:4700:4700::1111',
    '2a00:1450:4007:80e::200e',
  ])('allows %s (a public destination)', (address) => expect(addressRefusal(address)).toBeUndefined());

  it('refuses an IPv4-compatible URL host before any connection', () => {
    expect(() => assertPublicHttpUrl('http://[::127.0.0.1]:8080/hook')).toThrow(UnsafeUrlError);
    expect(() => assertPublicHttpUrl('http://[::127.0.0.1]:8080/hook')).toThrow(/IPv4-compatible/);
    expect(() => assertPublicHttpUrl('http://[0:0:0:0:0:0:7f00:1]/')).toThrow(/IPv4-compatible/);
  });

  it('refuses what is not an address', () => {
    expect(addressRefusal('fe80::1%eth0')).toMatch(/not an IP address|linkLocal/);
    expect(addressRefusal('example.com')).toMatch(/not an IP address/);
  });
});

describe('address policy: a loopback refusal names its fix (issue 26)', () => {
  it('an address or a localhost name says OUTBOUND_ALLOW_LOOPBACK; a private address does not (no variable allows it)', () => {
    expect(addressRefusal('127.0.0.1')).toMatch(/OUTBOUND_ALLOW_LOOPBACK=true/);
    expect(addressRefusal('::1')).toMatch(/OUTBOUND_ALLOW_LOOPBACK=true/);
    expect(() => assertPublicHttpUrl('http://localhost:4000/hook')).toThrow(/OUTBOUND_ALLOW_LOOPBACK=true/);
    expect(addressRefusal('10.0.0.1')).not.toMatch(/OUTBOUND_ALLOW_LOOPBACK/);
    expect(addressRefusal('127.0.0.1', { allowLoopback: true })).toBeUndefined();
  });
});
