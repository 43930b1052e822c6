import { PREFERENCE_TOPIC_PATTERN, parsePreferenceTopics } from '../../projects/preference-topics.js';
import type { PreferenceRow } from '../preferences/preference.types.js';
import { TOPIC_PATTERN } from '../../domain/topic.js';
import { pageLanguage } from '../unsubscribe/unsubscribe-pages.js';
import { PREFERENCE_COPY } from './preference-center-pages.js';
import { buildGrid, changesFor, gridChannels, gridTopics, gridVersion } from './preference-grid.js';

const row = (
  channel: string,
  scopeKind: PreferenceRow['scopeKind'],
  scope: string,
  enabled: boolean,
): PreferenceRow => ({ projectId: 'p', subscriberId: 's', channel, scopeKind, scope, enabled, updatedAt: new Date() });
const catalog = [
  { id: 'tips', label: 'Tips', transactional: false },
  { id: 'security', label: null, transactional: true },
];

describe('the preference grid', () => {
  it('shows the project’s personal channels the subscriber has an address for', () => {
    expect(gridChannels(['email', 'sms', 'telegram', 'in_app'], { email: 'a@b.c', phone: null })).toEqual([
      'email',
      'in_app',
    ]);
    expect(gridChannels([], { email: null, phone: '+33611111111' })).toEqual(['sms', 'push', 'in_app']);
  });

  it('lists the catalog, then marketing, then topics the subscriber already chose on', () => {
    expect(
      gridTopics(catalog, [row('email', 'topic', 'digest', false), row('*', 'workflow', 'wf', false)]).map((t) => t.id),
    ).toEqual(['tips', 'security', 'marketing', 'digest']);
  });

  it('reads each cell as the preference rule decides it (the most specific row wins)', () => {
    const rows = [
      row('*', 'all', '*', false),
      row('email', 'topic', 'tips', true),
      row('*', 'topic', 'marketing', false),
    ];
    const grid = buildGrid(['email', 'sms'], gridTopics(catalog, rows), rows);
    expect(
      grid.cells.map((c) => `${c.channel}/${c.topic}:${c.enabled ? 'on' : 'off'}${c.switchable ? '' : ' locked'}`),
    ).toEqual([
      'email/tips:on',
      'sms/tips:off',
      'email/security:off locked',
      'sms/security:off locked',
      'email/marketing:off',
      'sms/marketing:off',
    ]);
  });

  it('writes only the cells that differ; refuses a transactional change, an unknown topic or channel, naming the field', () => {
    const grid = buildGrid(['email', 'sms'], gridTopics(catalog, []), []);
    expect(
      changesFor(grid, [
        { channel: 'email', topic: 'tips', enabled: true },
        { channel: 'sms', topic: 'tips', enabled: false },
      ]),
    ).toEqual({ rows: [{ channel: 'sms', topic: 'tips', enabled: false }] });
    expect(changesFor(grid, [{ channel: 'email', topic: 'security', enabled: true }])).toEqual({ rows: [] });
    expect(changesFor(grid, [{ channel: 'email', topic: 'security', enabled: false }])).toEqual({
      error: 'preferences[0].topic "security" is transactional: it is always sent and cannot be switched off.',
    });
    expect(changesFor(grid, [{ channel: 'push', topic: 'tips', enabled: false }])).toEqual({
      error: `preferences[0].channel "push" is not one of this subscriber's channels: email, sms.`,
    });
    expect(changesFor(grid, [{ channel: 'sms', topic: 'nope', enabled: false }])).toEqual({
      error: `preferences[0].topic "nope" is not one of this project's topics: tips, security, marketing.`,
    });
  });

  it('versions the grid by its cells, not their states', () => {
    const a = buildGrid(['email'], gridTopics(catalog, []), []);
    expect(gridVersion(a)).toBe(
      gridVersion(buildGrid(['email'], gridTopics(catalog, []), [row('email', 'topic', 'tips', false)])),
    );
    expect(gridVersion(a)).not.toBe(gridVersion(buildGrid(['email', 'sms'], gridTopics(catalog, []), [])));
    expect(gridVersion(a)).not.toBe(
      gridVersion(buildGrid(['email'], gridTopics([{ ...catalog[0], transactional: true }, catalog[1]], []), [])),
    );
  });
});

describe('the catalog and the page’s languages', () => {
  it('projects check topic ids with governance’s pattern', () => {
    expect(PREFERENCE_TOPIC_PATTERN.source).toBe(TOPIC_PATTERN.source);
    expect(parsePreferenceTopics([' Tips ', { id: 'security', label: 'Security', transactional: true }])).toEqual({
      topics: [
        { id: 'tips', label: null, transactional: false },
        { id: 'security', label: 'Security', transactional: true },
      ],
    });
    expect(parsePreferenceTopics(['a', 'A'])).toEqual({
      error: 'settings.preference_topics[1]: topic "a" is listed twice.',
    });
    expect(parsePreferenceTopics([{ id: 'a', colour: 'red' }])).toEqual({
      error: 'settings.preference_topics[0] has unknown field colour: only id, label and transactional are read.',
    });
  });

  it('has a translation for every language the unsubscribe pages pick', () => {
    for (const lang of ['en', 'fr', 'es', 'de', 'it', 'pt', 'nl', 'ja'])
      expect(PREFERENCE_COPY[pageLanguage(lang)]).toBeDefined();
    for (const lang of Object.keys(PREFERENCE_COPY)) expect(pageLanguage(lang)).toBe(lang);
  });
});
