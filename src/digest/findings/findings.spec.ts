import type {
  DigestFacts,
  FailureCause,
  Finding,
  FindingRule,
  LaneRowView,
  RetryingRow,
  WaitingRow,
} from '../digest.types.js';
import { adviseOnCause, causeDomain, causeKind } from './failure-causes.js';
import { allQuiet } from './all-quiet.js';
import { autovacuumOff } from './autovacuum-off.finding.js';
import { bounceRate } from './bounce-rate.finding.js';
import { breakerOpen } from './breaker-open.finding.js';
import { complaintRate } from './complaint-rate.finding.js';
import { complaints } from './complaints.finding.js';
import { emailFallbackMissing } from './email-fallback-missing.finding.js';
import { emailProviderLog } from './email-provider-log.finding.js';
import { emailProviderMissing } from './email-provider-missing.finding.js';
import { failureRate } from './failure-rate.finding.js';
import { jobsBloat } from './jobs-bloat.finding.js';
import { lanePaused } from './lane-paused.finding.js';
import { notifyLock } from './notify-lock.finding.js';
import { oldestWaiting } from './oldest-waiting.finding.js';
import { publicUrlMissing } from './public-url-missing.finding.js';
import { quotaExhausted } from './quota-exhausted.finding.js';
import { harmScore, harmSeverity } from './harm.js';
import { countBySeverity, rankFindings, reaches } from './rank.js';
import { providerFailing } from './provider-failing.finding.js';
import { FINDING_RULES } from './rules.js';
import { senderMissing } from './sender-missing.finding.js';
import { stuckProcessing } from './stuck-processing.finding.js';
import { webhookDisabled } from './webhook-disabled.finding.js';
import { webhookPaused } from './webhook-paused.finding.js';
import { workerMissing } from './worker-missing.finding.js';

type Patch = { [K in keyof DigestFacts]?: DigestFacts[K] extends unknown[] ? DigestFacts[K] : Partial<DigestFacts[K]> };

/** A healthy instance: a real email provider with a fallback, a sender, a public URL, traffic flowing. */
function healthy(patch: Patch = {}): DigestFacts {
  const base: DigestFacts = {
    window: '24h',
    window_seconds: 86_400,
    since: '2026-11-29T06:00:00.000Z',
    generated_at: '2026-11-30T06:00:00.000Z',
    instance: {
      version: '0.1.0',
      role: 'all',
      uptime_seconds: 3_600,
      public_url: 'https://notify.example.com',
      providers: { email: 'resend', sms: 'twilio', in_app: 'log' },
      email_from: 'hello@acme.test',
      email_fallback_provider: 'smtp',
      breakers: [{ channel: 'email', primary: 'resend', fallback: 'smtp', state: 'closed', resting_seconds: null }],
      paused_lanes: [],
    },
    queue: {
      pending: 10,
      processing: 2,
      retry: 1,
      stuck_processing: 0,
      due: 3,
      late: 11,
      oldest_waiting_seconds: { urgent: 1, normal: 20, bulk: 600 },
    },
    waiting: [waiting()],
    retrying: [],
    workers: {
      alive: 1,
      last_beat_at: '2026-11-30T05:59:55.000Z',
      alive_within_seconds: 60,
      processes: [workerProcess()],
    },
    outcomes: [outcome()],
    failures: [],
    retries_waiting: [{ channel: 'email', attempts: 1, count: 1, next_retry_at: '2026-11-30T06:01:00.000Z' }],
    latency: [{ channel: 'email', p50_seconds: 0.3, p95_seconds: 1.2, samples: 1_000 }],
    deliverability: { delivered: 990, bounced: 10, complained: 0, bounce_rate_percent: 1, complaint_rate_percent: 0 },
    projects: [
      {
        id: 'acme',
        name: 'Acme',
        channels: ['email', 'in_app'],
        from_email: null,
        from_name: null,
        rate_limit_per_min: 600,
        sent: 1_000,
        failed: 0,
      },
    ],
    lanes: [lane()],
    webhooks_disabled: [],
    webhooks_paused: [],
    database: {
      jobs_live_tuples: 100_000,
      jobs_dead_tuples: 2_000,
      jobs_dead_percent: 1.96,
      jobs_last_autovacuum: null,
      jobs_autovacuum_blocked_by: [],
      notify_lock_waiters: 0,
    },
    last_finished_at: '2026-11-30T05:59:59.000Z',
    lease_seconds: 600,
  };
  const merged = { ...base } as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    const current = (base as unknown as Record<string, unknown>)[k];
    merged[k] = Array.isArray(v) || typeof v !== 'object' || v === null ? v : { ...(current as object), ...v };
  }
  return merged as unknown as DigestFacts;
}

/** Email waiting in the healthy instance: a few late jobs of one project, none older than 10 min. */
function waiting(patch: Partial<WaitingRow> = {}): WaitingRow {
  return {
    channel: 'email',
    pending: 10,
    retry: 1,
    due: 3,
    late: 11,
    oldest_late_seconds: 600,
    projects_late: 1,
    by_project: [{ project_id: 'acme', late: 11, due: 3, oldest_late_seconds: 600 }],
    ...patch,
  };
}

function retrying(patch: Partial<RetryingRow> = {}): RetryingRow {
  return {
    channel: 'email',
    provider: 'resend',
    count: 45,
    projects: 3,
    project_ids: ['acme', 'globex', 'initech'],
    oldest_late_seconds: 420,
    next_retry_at: '2026-11-30T06:02:00.000Z',
    sample_job_id: 'job-9',
    causes: [
      { reason: 'HTTP #: service unavailable', count: 40 },
      { reason: 'timeout after # ms', count: 5 },
    ],
    ...patch,
  };
}

/** One channel × provider's sends in the window: email through resend, 1000 sent and nothing failed, unless patched. */
function outcome(patch: Partial<DigestFacts['outcomes'][number]> = {}): DigestFacts['outcomes'][number] {
  return { channel: 'email', provider: 'resend', sent: 1_000, failed: 0, bounced: 0, cancelled: 0, ...patch };
}

/** One failure cause of the window: 25 email jobs of project shop refused for `reason`, unless patched. */
function cause(reason: string, patch: Partial<FailureCause> = {}): FailureCause {
  return {
    channel: 'email',
    reason,
    count: 25,
    projects: 1,
    project_ids: ['shop'],
    sample_job_id: 'job-7',
    last_seen: '2026-11-30T05:00:00.000Z',
    ...patch,
  };
}

/** The healthy instance's one worker process (w1, pid 7), alive and beating, unless patched. */
function workerProcess(
  patch: Partial<DigestFacts['workers']['processes'][number]> = {},
): DigestFacts['workers']['processes'][number] {
  return {
    role: 'worker',
    host: 'w1',
    pid: 7,
    version: '0.1.0',
    started_at: '2026-11-30T05:00:00.000Z',
    last_beat_at: '2026-11-30T05:59:55.000Z',
    stopped_at: null,
    alive: true,
    ...patch,
  };
}

/** No worker has beaten for 5 minutes. */
const noWorker: Patch = {
  workers: {
    alive: 0,
    last_beat_at: '2026-11-30T05:55:00.000Z',
    alive_within_seconds: 60,
    processes: [workerProcess({ last_beat_at: '2026-11-30T05:55:00.000Z', alive: false })],
  },
};

function lane(patch: Partial<LaneRowView> = {}): LaneRowView {
  return {
    lane: 'email:resend',
    channel: 'email',
    provider: 'resend',
    project_id: null,
    effective_rate: 8,
    configured_rate: 8,
    paced: true,
    rate_text: '8/s',
    paused_until: null,
    pause_kind: null,
    pause_reason: null,
    ...patch,
  };
}

/** The lane paused after a provider's 429 until `until` (a reason, unpaced or a project lane by patch). */
function rateLimitedLane(until: string, patch: Partial<LaneRowView> = {}): LaneRowView {
  return lane({ paused_until: until, pause_kind: 'rate_limited', ...patch });
}

/** An endpoint paused by its circuit breaker after its ninth failed attempt in a row (the fifth probe). */
function pausedHook(
  patch: Partial<DigestFacts['webhooks_paused'][number]> = {},
): DigestFacts['webhooks_paused'][number] {
  return {
    id: 'w2',
    project_id: 'acme',
    host: 'hooks.acme.test',
    last_failure_at: '2026-11-30T05:58:00.000Z',
    paused_until: '2026-11-30T06:06:00.000Z',
    consecutive_failures: 9,
    ...patch,
  };
}

/** One project's row of the window: an email project that sent and failed nothing, unless patched. */
function project(patch: Partial<DigestFacts['projects'][number]> & { id: string; name: string }) {
  return {
    channels: ['email'],
    from_email: null,
    from_name: null,
    rate_limit_per_min: 600,
    sent: 0,
    failed: 0,
    ...patch,
  };
}

const twoFailing: DigestFacts['projects'] = [
  project({ id: 'acme', name: 'Acme', channels: ['sms'], sent: 3, failed: 2 }),
  project({ id: 'globex', name: 'Globex', channels: ['sms'], sent: 2, failed: 3 }),
];

/** Email's failover breaker open: resend failed often enough that sends rest on smtp for 90 s. */
const openBreaker: Patch = {
  instance: {
    breakers: [{ channel: 'email', primary: 'resend', fallback: 'smtp', state: 'open', resting_seconds: 90 }],
  },
};

/** A lane notifyd does not pace (its rate variable is 0). */
const UNPACED = { configured_rate: 0, effective_rate: 0, paced: false, rate_text: 'unpaced' };

/** A recipient refused for good: a misspelt domain. */
const MISSPELT_DOMAIN = 'Resend 422 validation_error: The <*@gmial.con> domain is invalid.';

const codes = (findings: Finding[]) => findings.map((f) => `${f.severity}:${f.code}`);

describe('digest findings: each rule fires on its state and stays silent otherwise', () => {
  it('a healthy instance fires no rule at all, and the digest then says all quiet', () => {
    const facts = healthy();
    expect(FINDING_RULES.flatMap((r) => r(facts))).toEqual([]);
    expect(allQuiet(facts)).toMatchObject({
      severity: 'info',
      code: 'all_quiet',
      message: 'All quiet: 1000 sent, 0 failed in the last 24h.',
    });
  });

  const cases: [string, FindingRule, Patch, string[]][] = [
    [
      'no email provider',
      emailProviderMissing,
      { instance: { providers: { email: null } } },
      ['critical:email_provider_missing'],
    ],
    [
      'email provider log',
      emailProviderLog,
      { instance: { providers: { email: 'log' } } },
      ['critical:email_provider_log'],
    ],
    ['breaker open', breakerOpen, openBreaker, ['warning:failover_breaker_open']],
    [
      'PUBLIC_URL unset with email configured',
      publicUrlMissing,
      { instance: { public_url: null } },
      ['warning:public_url_missing'],
    ],
    [
      'no email fallback',
      emailFallbackMissing,
      { instance: { email_fallback_provider: null } },
      ['info:email_fallback_missing'],
    ],
    [
      'lane paused after a 429, holding a few jobs of one project',
      lanePaused,
      { lanes: [rateLimitedLane('2026-11-30T06:01:00.000Z', { pause_reason: '429' })] },
      ['warning:lane_paused'],
    ],
    [
      'lane paused by an operator',
      lanePaused,
      { lanes: [lane({ paused_until: '2026-11-30T07:00:00.000Z', pause_kind: 'operator' })] },
      ['info:lane_paused'],
    ],
    [
      'quota exhausted',
      quotaExhausted,
      { lanes: [lane({ paused_until: '2026-12-01T00:00:00.000Z', pause_kind: 'quota_exhausted' })] },
      ['critical:quota_exhausted'],
    ],
    [
      'urgent job waiting 6 min',
      oldestWaiting,
      { queue: { oldest_waiting_seconds: { urgent: 360, normal: 10, bulk: null } } },
      ['critical:queue_oldest_waiting'],
    ],
    [
      'normal 6 min and bulk 2 h',
      oldestWaiting,
      { queue: { oldest_waiting_seconds: { urgent: null, normal: 360, bulk: 7_200 } } },
      ['warning:queue_oldest_waiting', 'warning:queue_oldest_waiting'],
    ],
    ['no worker alive while jobs are due', workerMissing, noWorker, ['critical:worker_missing']],
    ['jobs past the lease', stuckProcessing, { queue: { stuck_processing: 3 } }, ['warning:jobs_stuck_processing']],
    ['failure rate 1 %', failureRate, { outcomes: [outcome({ sent: 990, failed: 10 })] }, ['info:failure_rate']],
    ['failure rate 5 %', failureRate, { outcomes: [outcome({ sent: 95, failed: 5 })] }, ['warning:failure_rate']],
    [
      'failure rate 50 % in two projects',
      failureRate,
      {
        outcomes: [outcome({ channel: 'sms', provider: 'twilio', sent: 5, failed: 5 })],
        projects: twoFailing,
      },
      ['critical:failure_rate'],
    ],
    [
      'failure rate 50 % in one project, 5 lost: narrow, so a warning',
      failureRate,
      { outcomes: [outcome({ channel: 'sms', provider: 'twilio', sent: 5, failed: 5 })] },
      ['warning:failure_rate'],
    ],
    [
      'bounce rate 2.5 %',
      bounceRate,
      { deliverability: { delivered: 975, bounced: 25, bounce_rate_percent: 2.5 } },
      ['warning:bounce_rate_high'],
    ],
    [
      'bounce rate 6 %',
      bounceRate,
      { deliverability: { delivered: 940, bounced: 60, bounce_rate_percent: 6 } },
      ['critical:bounce_rate_critical'],
    ],
    [
      'a few complaints',
      complaints,
      { deliverability: { delivered: 10_000, complained: 2, complaint_rate_percent: 0.02 } },
      ['warning:complaints'],
    ],
    [
      'complaint rate 0.15 % (near the ceiling)',
      complaintRate,
      { deliverability: { delivered: 10_000, complained: 15, complaint_rate_percent: 0.15 } },
      ['warning:complaint_rate'],
    ],
    [
      'complaint rate 0.4 % (over the ceiling)',
      complaintRate,
      { deliverability: { delivered: 1_000, complained: 4, complaint_rate_percent: 0.4 } },
      ['critical:complaint_rate'],
    ],
    [
      'sender missing with no EMAIL_FROM',
      senderMissing,
      { instance: { email_from: null } },
      ['warning:sender_missing'],
    ],
    [
      'a provider answering 5xx: jobs retrying',
      providerFailing,
      { retrying: [retrying()] },
      ['warning:provider_failing'],
    ],
    [
      'webhook endpoint disabled',
      webhookDisabled,
      {
        webhooks_disabled: [
          {
            id: 'w1',
            project_id: 'acme',
            host: 'hooks.acme.test',
            disabled_at: '2026-11-30T04:00:00.000Z',
            reason: '410 Gone',
          },
        ],
      },
      ['warning:webhook_endpoint_disabled'],
    ],
    [
      'webhook endpoint paused by its circuit breaker',
      webhookPaused,
      { webhooks_paused: [pausedHook()] },
      ['warning:webhook_endpoint_paused'],
    ],
    [
      'jobs table 30 % dead',
      jobsBloat,
      { database: { jobs_live_tuples: 100_000, jobs_dead_tuples: 43_000, jobs_dead_percent: 30 } },
      ['warning:jobs_table_bloat'],
    ],
    [
      'jobs table 60 % dead',
      jobsBloat,
      { database: { jobs_live_tuples: 100_000, jobs_dead_tuples: 150_000, jobs_dead_percent: 60 } },
      ['critical:jobs_table_bloat'],
    ],
    [
      'autovacuum off on the server',
      autovacuumOff,
      { database: { jobs_autovacuum_blocked_by: ['server: autovacuum = off'] } },
      ['warning:autovacuum_off'],
    ],
    [
      'autovacuum off for the jobs table',
      autovacuumOff,
      { database: { jobs_autovacuum_blocked_by: ['table jobs: autovacuum_enabled = false'] } },
      ['warning:autovacuum_off'],
    ],
    [
      '5 sessions on the NOTIFY lock',
      notifyLock,
      { database: { notify_lock_waiters: 5 } },
      ['warning:notify_commit_lock'],
    ],
    ['1 session on the NOTIFY lock', notifyLock, { database: { notify_lock_waiters: 1 } }, ['info:notify_commit_lock']],
  ];

  it.each(cases)('%s', (_name, rule, patch, expected) => {
    expect(codes(rule(healthy(patch)))).toEqual(expected);
    expect(rule(healthy())).toEqual([]);
  });

  it.each(cases)('every finding of "%s" carries an action and evidence', (_name, rule, patch) => {
    for (const f of rule(healthy(patch))) {
      expect(f.action.length).toBeGreaterThan(10);
      expect(Object.keys(f.evidence).length).toBeGreaterThan(0);
    }
  });

  it('stays silent just under each threshold', () => {
    expect(
      oldestWaiting(healthy({ queue: { oldest_waiting_seconds: { urgent: 300, normal: 300, bulk: 3_600 } } })),
    ).toEqual([]);
    expect(bounceRate(healthy({ deliverability: { bounce_rate_percent: 1.99 } }))).toEqual([]);
    expect(
      complaintRate(healthy({ deliverability: { complained: 9, delivered: 10_000, complaint_rate_percent: 0.09 } })),
    ).toEqual([]);
    expect(jobsBloat(healthy({ database: { jobs_dead_tuples: 9_999, jobs_dead_percent: 90 } }))).toEqual([]);
    expect(jobsBloat(healthy({ database: { jobs_dead_tuples: 50_000, jobs_dead_percent: 19.9 } }))).toEqual([]);
    // No worker but nothing due: nothing to say yet (a scheduled send is not late).
    expect(workerMissing(healthy({ ...noWorker, queue: { due: 0 } }))).toEqual([]);
  });

  it('says what keeps autovacuum away, in the message and the evidence, and names only the fixes that apply', () => {
    const blockedBy = ['server: autovacuum = off', 'table jobs: autovacuum_enabled = false'];
    const [finding] = autovacuumOff(healthy({ database: { jobs_autovacuum_blocked_by: blockedBy } }));
    expect(finding.message).toContain('server: autovacuum = off; table jobs: autovacuum_enabled = false');
    expect(finding.action).toContain('ALTER SYSTEM SET autovacuum = on');
    expect(finding.action).toContain('ALTER TABLE jobs RESET (autovacuum_enabled)');
    expect(finding.action).not.toContain('track_counts');
    expect(finding.evidence).toMatchObject({ jobs_autovacuum_blocked_by: blockedBy });

    const [tableOnly] = autovacuumOff(
      healthy({ database: { jobs_autovacuum_blocked_by: ['table jobs: autovacuum_enabled = false'] } }),
    );
    expect(tableOnly.action).toContain('ALTER TABLE jobs RESET (autovacuum_enabled)');
    expect(tableOnly.action).not.toContain('ALTER SYSTEM');
    const [counts] = autovacuumOff(
      healthy({ database: { jobs_autovacuum_blocked_by: ['notifyd sessions: track_counts = off'] } }),
    );
    expect(counts.action).toContain('ALTER ROLE … RESET track_counts');
  });

  it('a paused webhook endpoint: which one of which project (host only), since and until when, after how many failures, its events wait', () => {
    const [finding, ...rest] = webhookPaused(healthy({ webhooks_paused: [pausedHook()] }));
    expect(rest).toEqual([]);
    expect(finding).toEqual({
      severity: 'warning',
      code: 'webhook_endpoint_paused',
      message:
        'Webhook endpoint w2 of project acme (hooks.acme.test) is paused since 2026-11-30T05:58:00.000Z (its last failed attempt) until ' +
        '2026-11-30T06:06:00.000Z, after 9 failed attempts in a row. Its events wait and are not lost: they go out once a probe succeeds.',
      action:
        'Check the receiver at hooks.acme.test: its last error is in GET /v1/admin/webhooks/w2/deliveries. ' +
        'It resumes by itself after a successful probe (one delivery goes when the pause ends): nothing to re-enable. ' +
        'Down for about a day, it is disabled and what waits is cancelled.',
      evidence: pausedHook(),
    });
    // One finding per paused endpoint, in the order the source gives (newest pause first).
    const two = webhookPaused(
      healthy({ webhooks_paused: [pausedHook(), pausedHook({ id: 'w3', project_id: 'globex' })] }),
    );
    expect(two.map((f) => f.evidence.id)).toEqual(['w2', 'w3']);
    // No paused endpoint (an ended pause or a disabled endpoint is not listed by the source): silent.
    expect(webhookPaused(healthy())).toEqual([]);
  });

  it('complaints above the near-ceiling rate are reported once, by the rate rule', () => {
    const facts = healthy({ deliverability: { delivered: 1_000, complained: 4, complaint_rate_percent: 0.4 } });
    expect(complaints(facts)).toEqual([]);
    expect(complaintRate(facts)).toHaveLength(1);
  });

  it('sender missing only for email projects without from_email, and not when EMAIL_FROM is set', () => {
    const facts = healthy({
      instance: { email_from: null },
      projects: [
        project({ id: 'a', name: 'A' }),
        project({ id: 'b', name: 'B', from_email: 'b@b.test' }),
        project({ id: 'c', name: 'C', channels: ['sms'] }),
      ],
    });
    expect(senderMissing(facts).map((f) => f.evidence.project_id)).toEqual(['a']);
  });

  it('the failure finding names the top cause and a sample job', () => {
    const [f] = failureRate(
      healthy({
        outcomes: [outcome({ channel: 'sms', provider: 'twilio', sent: 10, failed: 10 })],
        failures: [
          cause("invalid 'To' number", { channel: 'sms', count: 7, project_ids: ['acme'], sample_job_id: 'job-1' }),
        ],
      }),
    );
    expect(f.message).toContain("invalid 'To' number");
    expect(f.message).toContain('job-1');
    expect(f.action).toContain('Caller: ');
    expect(f).toMatchObject({ owner: 'caller', project_ids: ['acme'] });
  });

  it('public URL: nothing to warn about without email or Twilio', () => {
    expect(
      publicUrlMissing(healthy({ instance: { public_url: null, providers: { email: null, sms: 'log' } } })),
    ).toEqual([]);
    expect(
      publicUrlMissing(healthy({ instance: { public_url: null, providers: { email: null, sms: 'twilio' } } }))[0]
        .message,
    ).toContain('Twilio');
  });
});

describe('ranking', () => {
  const f = (severity: Finding['severity'], code: string): Finding => ({
    severity,
    code,
    message: code,
    action: 'x',
    evidence: {},
  });

  it('orders critical → warning → info and keeps rule order within a severity', () => {
    const ranked = rankFindings([
      f('info', 'i1'),
      f('warning', 'w1'),
      f('critical', 'c1'),
      f('info', 'i2'),
      f('warning', 'w2'),
      f('critical', 'c2'),
    ]);
    expect(ranked.map((x) => x.code)).toEqual(['c1', 'c2', 'w1', 'w2', 'i1', 'i2']);
    expect(countBySeverity(ranked)).toEqual({ critical: 2, warning: 2, info: 2 });
  });

  it('a severity reaches the thresholds at or below it', () => {
    expect(reaches('critical', 'warning')).toBe(true);
    expect(reaches('warning', 'warning')).toBe(true);
    expect(reaches('info', 'warning')).toBe(false);
    expect(reaches('info', 'info')).toBe(true);
  });

  it('a broken instance ranks every rule’s findings together: within a severity, what holds or loses messages first', () => {
    const facts = healthy({
      instance: { providers: { email: 'log', sms: 'log' }, email_fallback_provider: null, public_url: null },
      lanes: [rateLimitedLane('2026-11-30T06:01:00.000Z')],
      outcomes: [outcome({ provider: 'log', sent: 90, failed: 10 })],
    });
    const ranked = rankFindings(FINDING_RULES.flatMap((r) => r(facts)));
    // email_provider_log swallowed 90 emails (lost); failure_rate lost 10 in one project (narrow:
    // a warning), more than the paused lane's 11 late jobs of one project weigh; public_url_missing
    // costs nothing measurable now.
    expect(codes(ranked)).toEqual([
      'critical:email_provider_log',
      'warning:failure_rate',
      'warning:lane_paused',
      'warning:public_url_missing',
    ]);
  });

  it('within a severity, the finding that holds more messages, longer, in more projects ranks first', () => {
    const small = {
      ...f('warning', 'small'),
      harm: { held: 20, lost: 0, projects: 1, channels: ['sms'], seconds: 120 },
    };
    const wide = {
      ...f('warning', 'wide'),
      harm: { held: 20, lost: 0, projects: 5, channels: ['email'], seconds: 120 },
    };
    const lost = {
      ...f('warning', 'lost'),
      harm: { held: 0, lost: 30, projects: 1, channels: ['email'], seconds: null },
    };
    const setup = f('warning', 'setup');
    expect(rankFindings([setup, small, lost, wide, f('critical', 'c')]).map((x) => x.code)).toEqual([
      'c',
      'lost',
      'wide',
      'small',
      'setup',
    ]);
    expect(harmScore(lost.harm)).toBe(30 * 60);
    expect(harmScore(wide.harm)).toBe(20 * 2 * 5);
  });
});

describe('actions fit the classified cause and name who acts', () => {
  it('the provider’s status code survives into the kind: 422 about a domain is caller data, 401 is credentials, gave-up is an outage', () => {
    expect(causeKind(MISSPELT_DOMAIN)).toBe('recipient');
    expect(causeKind("Twilio 400 21211: invalid 'To' phone number")).toBe('recipient');
    expect(causeKind('Resend 401 missing_api_key: Missing API key in the authorization header.')).toBe('credentials');
    expect(causeKind('Resend 403 validation_error: The acme.test domain is not verified.')).toBe('credentials');
    expect(causeKind('Postmark 422: The From address is not a Sender Signature.')).toBe('sender');
    expect(causeKind('HTTP 503: unavailable (gave up after 5 attempts)')).toBe('gave_up');
    expect(causeKind('suppressed: hard bounce')).toBe('suppressed');
    expect(causeDomain(MISSPELT_DOMAIN)).toBe('gmial.con');
  });

  it('a recipient refused for good: the caller of the project fixes its data; no retry_job is suggested', () => {
    const [f] = failureRate(
      healthy({
        outcomes: [outcome({ sent: 0, failed: 25 })],
        failures: [cause(MISSPELT_DOMAIN)],
        projects: [project({ id: 'shop', name: 'Shop', failed: 25 })],
      }),
    );
    expect(f).toMatchObject({ severity: 'warning', owner: 'caller', project_ids: ['shop'] });
    expect(f.action).toContain('caller of project shop must correct the addresses');
    expect(f.action).toContain('domain gmial.con');
    expect(f.calls!.map((c) => c.tool)).not.toContain('retry_job');
    expect(f.calls![0]).toEqual({
      tool: 'list_jobs',
      arguments: { project_id: 'shop', status: 'failed', channel: 'email', recipient_domain: 'gmial.con' },
      admin: false,
      purpose: expect.any(String),
    });
  });

  it('credentials refused: the operator fixes them, then retry_job (admin) re-sends', () => {
    const advice = adviseOnCause(
      cause('Resend 401 missing_api_key: Missing API key', { projects: 3, project_ids: ['a', 'b', 'c'] }),
    );
    expect(advice.owner).toBe('operator');
    expect(advice.calls.find((c) => c.tool === 'retry_job')).toMatchObject({ admin: true, arguments: { id: 'job-7' } });
  });

  it('an unpaced lane is never told to lower its rate; a paced one is told the rate it runs at', () => {
    const unpaced = rateLimitedLane('2026-11-30T06:20:00.000Z', {
      ...UNPACED,
      pause_reason: 'resend: Resend 429 rate_limit_exceeded',
    });
    const [u] = lanePaused(healthy({ lanes: [unpaced] }));
    expect(u.action).toContain('is unpaced (EMAIL_RATE_PER_SEC=0)');
    expect(u.action).toContain('Set EMAIL_RATE_PER_SEC to the rate');
    expect(u.action).not.toMatch(/lower EMAIL_RATE_PER_SEC/);
    expect(u).toMatchObject({
      owner: 'operator',
      calls: [
        { tool: 'list_lanes', admin: false },
        { tool: 'resume_lane', arguments: { lane: 'email:resend' }, admin: true },
      ],
    });
    const [p] = lanePaused(healthy({ lanes: [rateLimitedLane('2026-11-30T06:20:00.000Z')] }));
    expect(p.action).toContain('lower EMAIL_RATE_PER_SEC below 8/s');
  });

  it('an open breaker on an unpaced lane is told to get a rate, a paced one to lower it', () => {
    const [u] = breakerOpen(healthy({ ...openBreaker, lanes: [lane(UNPACED)] }));
    expect(u.action).toContain('Lane email:resend is unpaced (EMAIL_RATE_PER_SEC=0)');
    expect(u.action).toContain('set EMAIL_RATE_PER_SEC to the rate your resend plan allows');
    expect(u.action).not.toMatch(/lower EMAIL_RATE_PER_SEC/);
    const [p] = breakerOpen(healthy({ ...openBreaker, lanes: [lane()] }));
    expect(p.action).toContain('lower EMAIL_RATE_PER_SEC below 8/s');
    expect(p).toMatchObject({
      owner: 'operator',
      evidence: { lane: { lane: 'email:resend', paced: true, rate_text: '8/s' } },
    });
  });

  it('the incident: a 20-minute pause holding every project’s email outranks 25 refused orders of one project', () => {
    const allEmail = waiting({
      late: 40,
      due: 0,
      pending: 40,
      oldest_late_seconds: 120,
      projects_late: 3,
      by_project: ['shop', 'blog', 'crm'].map((id) => ({ project_id: id, late: 13, due: 0, oldest_late_seconds: 120 })),
    });
    const facts = healthy({
      lanes: [rateLimitedLane('2026-11-30T06:20:00.000Z', { ...UNPACED, pause_reason: 'resend: 429' })],
      waiting: [allEmail],
      outcomes: [outcome({ sent: 100, failed: 25 })],
      failures: [cause(MISSPELT_DOMAIN)],
      projects: [project({ id: 'shop', name: 'Shop', sent: 100, failed: 25 })],
    });
    const ranked = rankFindings(FINDING_RULES.flatMap((r) => r(facts)));
    expect(codes(ranked).slice(0, 2)).toEqual(['critical:lane_paused', 'warning:failure_rate']);
  });
});

describe('harm: severity follows what a problem does now', () => {
  it('a pause that holds all email of every project for 15 minutes is critical; a short one holding little is info', () => {
    const allEmail = waiting({
      late: 1_200,
      due: 1_150,
      pending: 1_200,
      oldest_late_seconds: 960,
      projects_late: 12,
      by_project: Array.from({ length: 12 }, (_, i) => ({
        project_id: `p${i}`,
        late: 100,
        due: 95,
        oldest_late_seconds: 960,
      })),
    });
    const paused = rateLimitedLane('2026-11-30T06:10:00.000Z', { pause_reason: '429 Too Many Requests' });
    const [f] = lanePaused(healthy({ lanes: [paused], waiting: [allEmail] }));
    // Held 16 min so far, 10 min of pause to come: the oldest will be 26 min late.
    expect(f).toMatchObject({
      severity: 'critical',
      harm: { held: 1_200, projects: 12, seconds: 960 + 600, channels: ['email'] },
    });
    expect(f.message).toContain('1200 message(s) of 12 project(s) late for 16 min');

    const little = waiting({
      late: 3,
      due: 3,
      oldest_late_seconds: 40,
      projects_late: 1,
      by_project: [{ project_id: 'acme', late: 3, due: 3, oldest_late_seconds: 40 }],
    });
    const short = rateLimitedLane('2026-11-30T06:01:00.000Z', { pause_reason: '429 Too Many Requests' });
    expect(lanePaused(healthy({ lanes: [short], waiting: [little] }))[0].severity).toBe('info');
    // The same few messages held by a 10-minute pause: they will be 10 minutes late.
    expect(lanePaused(healthy({ lanes: [paused], waiting: [little] }))[0].severity).toBe('warning');
    // A project lane counts only its project's jobs.
    const projectLane = rateLimitedLane('2026-11-30T06:10:00.000Z', { lane: 'email:resend:p3', project_id: 'p3' });
    expect(lanePaused(healthy({ lanes: [projectLane], waiting: [allEmail] }))[0].harm).toMatchObject({
      held: 100,
      projects: 1,
    });
  });

  it('a provider failing for 15 minutes across projects is critical; one job retrying once is info', () => {
    expect(providerFailing(healthy({ retrying: [retrying({ oldest_late_seconds: 960 })] }))[0].severity).toBe(
      'critical',
    );
    expect(
      providerFailing(
        healthy({ retrying: [retrying({ count: 1, projects: 1, project_ids: ['acme'], oldest_late_seconds: 35 })] }),
      )[0].severity,
    ).toBe('info');
  });

  it('the thresholds: critical needs both time and breadth', () => {
    expect(harmSeverity({ held: 5_000, lost: 0, projects: 1, channels: ['email'], seconds: 899 })).toBe('warning');
    expect(harmSeverity({ held: 100, lost: 0, projects: 1, channels: ['email'], seconds: 900 })).toBe('critical');
    expect(harmSeverity({ held: 99, lost: 0, projects: 1, channels: ['email'], seconds: 3_600 })).toBe('warning');
    expect(harmSeverity({ held: 2, lost: 0, projects: 2, channels: ['email'], seconds: 900 })).toBe('critical');
    expect(harmSeverity({ held: 0, lost: 3, projects: 1, channels: ['email'], seconds: null })).toBe('warning');
    expect(harmSeverity({ held: 9, lost: 0, projects: 1, channels: ['email'], seconds: 299 })).toBe('info');
  });
});

describe('failing now and missing workers', () => {
  it('a provider failing transiently is reported per channel × provider while its jobs retry, naming causes, projects and the fix', () => {
    const facts = healthy({
      retrying: [
        retrying(),
        retrying({
          channel: 'sms',
          provider: 'twilio',
          count: 2,
          projects: 1,
          project_ids: ['acme'],
          oldest_late_seconds: 60,
          causes: [{ reason: 'HTTP #: bad gateway', count: 2 }],
        }),
      ],
    });
    const findings = providerFailing(facts);
    expect(findings.map((x) => x.evidence.channel)).toEqual(['email', 'sms']);
    const [email, sms] = findings;
    expect(email.harm).toEqual({ held: 45, lost: 0, projects: 3, channels: ['email'], seconds: 420 });
    expect(email.message).toContain(
      'email through resend is failing now: 45 job(s) wait to retry after "HTTP #: service unavailable" (40×), "timeout after # ms" (5×)',
    );
    expect(email.message).toContain('Nothing is lost yet');
    expect(email.action).toContain('GET /v1/admin/jobs/job-9');
    expect(email.action).toContain('EMAIL_FALLBACK_PROVIDER');
    expect(email.action).toContain('POST /v1/admin/lanes/email:resend/pause');
    expect(sms.message).toContain('2 job(s) wait to retry after "HTTP #: bad gateway";');
  });

  it('no live worker with due jobs: critical, naming the last beat and the fix; a live worker or nothing due: silent', () => {
    const [f] = workerMissing(healthy({ ...noWorker, queue: { due: 40, late: 42 } }));
    expect(f).toMatchObject({ severity: 'critical', code: 'worker_missing' });
    expect(f.message).toContain('the last heartbeat came 5 min ago (w1, pid 7, gone without stopping)');
    expect(f.message).toContain('40 job(s) are due');
    expect(f.action).toContain('NOTIFYD_ROLE=worker');
    expect(f.harm).toMatchObject({ held: 42 });
    const never = workerMissing(
      healthy({ workers: { alive: 0, last_beat_at: null, alive_within_seconds: 60, processes: [] } }),
    );
    expect(never[0].message).toContain('No worker process has ever run against this database');
    expect(workerMissing(healthy())).toEqual([]);
  });
});

describe('latency percentiles from the histogram', () => {
  it('reads p50 and p95 within 5 % of the exact values', async () => {
    const { latencyOf } = await import('../window-fold.js');
    const { LATENCY_BUCKETS_PER_E } = await import('../sql/window.sql.js');
    // 1 000 latencies from 0.1 s to 10 s, spread evenly in log space.
    const values = Array.from({ length: 1_000 }, (_, i) => 0.1 * 100 ** (i / 999));
    const histogram = new Map<number, number>();
    for (const v of values) {
      const b = Math.floor(Math.log(v + 0.001) * LATENCY_BUCKETS_PER_E);
      histogram.set(b, (histogram.get(b) ?? 0) + 1);
    }
    const row = latencyOf(
      'email',
      [...histogram].map(([bucket, n]) => ({ bucket, n })),
    );
    expect(row.samples).toBe(1_000);
    expect(Math.abs(row.p50_seconds / values[499] - 1)).toBeLessThan(0.05);
    expect(Math.abs(row.p95_seconds / values[949] - 1)).toBeLessThan(0.05);
  });
});

describe('scheduled digest: level and window', () => {
  it('sends at a level only when a finding reaches it; always sends with always; all quiet never reaches info', async () => {
    const { worthSending, windowForInterval } = await import('../notify/digest-notifier.service.js');
    const report = (severity: Finding['severity'], code = 'x') =>
      ({
        findings: [{ severity, code, message: '', action: '', evidence: {} }],
      }) as unknown as import('../digest.types.js').DigestReport;
    expect(worthSending(report('warning'), 'critical')).toBe(false);
    expect(worthSending(report('warning'), 'warning')).toBe(true);
    expect(worthSending(report('critical'), 'warning')).toBe(true);
    expect(worthSending(report('info'), 'info')).toBe(true);
    expect(worthSending(report('info', 'all_quiet'), 'info')).toBe(false);
    expect(worthSending(report('info', 'all_quiet'), 'always')).toBe(true);
    expect(windowForInterval(30 * 60_000)).toBe('1h');
    expect(windowForInterval(6 * 3_600_000)).toBe('6h');
    expect(windowForInterval(86_400_000)).toBe('24h');
    expect(windowForInterval(2 * 86_400_000)).toBe('7d');
  });
});
