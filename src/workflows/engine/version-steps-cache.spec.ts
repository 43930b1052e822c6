import { VersionStepsCache } from './version-steps-cache.js';
import type { WorkflowStep } from '../workflow-steps.js';

const steps = (body: string) => [{ type: 'send', channel: 'sms', body }] as unknown as WorkflowStep[];

describe('VersionStepsCache', () => {
  it('evicts the least recently used version past the entry bound', () => {
    const cache = new VersionStepsCache(2, 1_000);
    cache.set('1', steps('a'), 10);
    cache.set('2', steps('b'), 10);
    expect(cache.get('1')).toEqual(steps('a')); // 1 is now the most recently used
    cache.set('3', steps('c'), 10);
    expect([cache.get('1'), cache.get('2'), cache.get('3')]).toEqual([steps('a'), undefined, steps('c')]);
    expect(cache.size).toBe(2);
  });

  it('evicts past the byte bound and never keeps a version larger than it', () => {
    const cache = new VersionStepsCache(10, 100);
    cache.set('1', steps('a'), 60);
    cache.set('2', steps('b'), 60);
    expect([cache.get('1'), cache.get('2')]).toEqual([undefined, steps('b')]);
    cache.set('3', steps('c'), 101);
    expect([cache.get('2'), cache.get('3')]).toEqual([steps('b'), undefined]);
  });
});
