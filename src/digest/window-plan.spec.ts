import { windowPlan } from './window-plan.js';

const t = (iso: string) => new Date(`2026-12-01T${iso}Z`);
const iso = (dates: Date[]) => dates.map((d) => d.toISOString().slice(11, 19));

describe('windowPlan: what a window reads from the rollup and what from jobs', () => {
  it('a window that starts in the whole hours: rollup from the next hour up to rolled_through', () => {
    const p = windowPlan(t('07:12:30'), t('10:00:00'), t('10:23:41.5'), []);
    expect(p.firstPeriod).toEqual(t('08:00:00'));
    expect(p.rolledEnd).toEqual(t('10:23:41.5'));
    expect(p.dirtyHours).toEqual([]);
    expect(p.dirtyPeriods).toEqual([]);
    expect(p.dirtyFrom).toEqual(p.rolledEnd);
    expect(p.dirtyTo).toEqual(p.rolledEnd);
  });

  it('a window that starts in the open hours begins at the next 5-minute period, so jobs answer for less than 5 minutes at its start', () => {
    expect(windowPlan(t('10:02:10'), t('10:00:00'), t('10:23:41'), []).firstPeriod).toEqual(t('10:05:00'));
  });

  it('a mark before hours_through stands for its hour, a later one for its period; marks outside the rolled span are left to the jobs arm', () => {
    const p = windowPlan(t('07:12:30'), t('10:00:00'), t('10:23:41'), [
      t('07:40:00'),
      t('08:35:00'),
      t('08:50:00'),
      t('10:05:00'),
      t('10:20:00'),
      t('10:25:00'),
    ]);
    expect(iso(p.dirtyHours)).toEqual(['08:00:00']);
    expect(iso(p.dirtyPeriods)).toEqual(['10:05:00', '10:20:00']);
    expect(p.dirtyFrom).toEqual(t('08:00:00'));
    // The last dirty period ends after rolled_through: the jobs arm reads the rest anyway.
    expect(p.dirtyTo).toEqual(t('10:23:41'));
  });

  it('nothing rolled yet (or the rollup behind the window): everything from jobs', () => {
    const none = windowPlan(t('09:30:00'), null, null, [t('09:45:00')]);
    expect(none.firstPeriod).toEqual(t('10:00:00'));
    expect(none.rolledEnd).toEqual(t('10:00:00'));
    expect(none.dirtyHours).toEqual([]);
    expect(none.dirtyPeriods).toEqual([]);
    const behind = windowPlan(t('09:30:00'), t('08:00:00'), t('08:00:00'), []);
    expect(behind.rolledEnd).toEqual(behind.firstPeriod);
  });
});
