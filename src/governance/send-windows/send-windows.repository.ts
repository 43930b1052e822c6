import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import { PROJECT_WINDOWS, SET_PROJECT_WINDOW, SUBSCRIBER_TIMEZONES } from './sql/send-windows.sql.js';

/** Keys a subscriber across projects: `project/subscriber`. */
export const subscriberKey = (projectId: string, subscriberId: string) => `${projectId}/${subscriberId}`;

@Injectable()
export class SendWindowsRepository {
  constructor(private readonly db: Db) {}

  /** Each project's raw `settings.send_window` (unvalidated; null when unset). */
  async projectWindows(projectIds: string[]): Promise<Map<string, unknown>> {
    const rows = await this.db.rows<{ id: string; window: unknown }>(PROJECT_WINDOWS, [projectIds]);
    return new Map(rows.map((r) => [r.id, r.window]));
  }

  /** Time zones keyed by subscriberKey; subscribers without one are absent. */
  async subscriberTimezones(pairs: { projectId: string; subscriberId: string }[]): Promise<Map<string, string>> {
    const rows = await this.db.rows<{ projectId: string; id: string; timezone: string }>(SUBSCRIBER_TIMEZONES, [
      pairs.map((p) => p.projectId),
      pairs.map((p) => p.subscriberId),
    ]);
    return new Map(rows.map((r) => [subscriberKey(r.projectId, r.id), r.timezone]));
  }

  /** Stores (or with null clears) a project's window; undefined when the project is gone. */
  async setProjectWindow(projectId: string, window: object | null): Promise<{ window: unknown } | undefined> {
    return this.db.one<{ window: unknown }>(SET_PROJECT_WINDOW, [
      projectId,
      window === null ? null : JSON.stringify(window),
    ]);
  }
}
