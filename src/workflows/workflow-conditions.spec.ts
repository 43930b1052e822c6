import { flattenVars } from './engine/flatten-vars.js';
import { evaluate, resolveField } from './workflow-conditions.js';
import { parseSteps } from './workflow-steps.js';

const scope = {
  payload: { total: '250', tags: ['vip'], order: { id: 'A-1' }, name: 'Jane' },
  subscriber: { locale: 'fr', data: { plan: 'pro' } },
};

describe('workflow conditions', () => {
  it('resolves dotted paths in the payload and the subscriber', () => {
    expect(resolveField(scope, 'payload.order.id')).toBe('A-1');
    expect(resolveField(scope, 'subscriber.data.plan')).toBe('pro');
    expect(resolveField(scope, 'payload.missing.deep')).toBeUndefined();
    expect(resolveField(scope, 'payload.constructor')).toBeUndefined();
  });

  it.each([
    ['payload.total', 'gt', 100, true],
    ['payload.total', 'lte', 100, false],
    ['payload.total', 'eq', 250, true],
    ['payload.name', 'eq', 'jane', false],
    ['payload.name', 'contains', 'AN', true],
    ['payload.tags', 'contains', 'vip', true],
    ['subscriber.locale', 'in', ['fr', 'de'], true],
    ['subscriber.locale', 'not_in', ['fr'], false],
    ['payload.missing', 'exists', undefined, false],
    ['payload.missing', 'not_exists', undefined, true],
    ['payload.missing', 'neq', 'x', true],
    ['payload.name', 'gt', 1, false],
  ] as const)('%s %s %j → %s', (field, operator, value, expected) => {
    expect(evaluate({ field, operator, value }, scope)).toBe(expected);
  });
});

describe('workflow steps', () => {
  it('normalises defaults and rejects unknown fields', () => {
    const ok = parseSteps([{ type: 'throttle', window_secs: 60 }]);
    expect(ok).toEqual({ steps: [{ type: 'throttle', window_secs: 60, limit: 1 }] });
    const bad = parseSteps([{ type: 'delay', duration_secs: 5, extra: true }]);
    expect('problems' in bad && bad.problems[0]).toMatch(/steps\[0\]/);
    expect(parseSteps([{ type: 'send', channel: 'sms' }])).toEqual({
      problems: ['steps[0] (send) needs a template_id, or a subject, body or body_html'],
    });
  });

  it('flattens nested payloads into dotted template variables', () => {
    expect(flattenVars({ a: 1, order: { id: 'A', lines: [1] } })).toEqual({
      a: 1,
      order: { id: 'A', lines: [1] },
      'order.id': 'A',
      'order.lines': [1],
    });
  });
});
