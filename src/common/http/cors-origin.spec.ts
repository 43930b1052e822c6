import { corsOriginCheck } from './cors-origin.js';

describe('corsOriginCheck', () => {
  const run = (check: ReturnType<typeof corsOriginCheck>, origin: string | undefined) => {
    if (check === true) return true;
    let allowed: boolean | undefined;
    check(origin, (_err, allow) => (allowed = allow));
    return allowed;
  };

  it('allows listed origins and requests without an Origin; refuses others and logs the origin with CORS_ORIGINS, once a minute per origin', () => {
    const lines: string[] = [];
    let now = 0;
    const check = corsOriginCheck(
      ['http://localhost:5173'],
      { warn: (m: string) => lines.push(m) } as never,
      () => now,
    );
    expect(run(check, 'http://localhost:5173')).toBe(true);
    expect(run(check, undefined)).toBe(true);
    expect(run(check, 'http://localhost:8081')).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"http://localhost:8081"');
    expect(lines[0]).toContain('CORS_ORIGINS');
    expect(run(check, 'http://localhost:8081')).toBe(false);
    expect(lines).toHaveLength(1);
    now += 60_000;
    run(check, 'http://localhost:8081');
    expect(lines).toHaveLength(2);
  });

  it('CORS_ORIGINS set but empty allows any origin', () => {
    expect(corsOriginCheck([])).toBe(true);
  });
});
