import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { registerSettingRule } from '../../projects/setting-rules.js';
import { isValidTimeZone } from './local-time.js';
import { nextAllowed, parseSendWindow, type SendWindow } from './send-window.js';
import { SendWindowsRepository, subscriberKey } from './send-windows.repository.js';

/** What the window rules read from a job. */
export interface WindowedJob {
  id: string;
  projectId: string;
  subscriberId: string | null;
  /** The payload carries `send_window` (the request's own, or false) and `transactional`. */
  payload: Record<string, unknown>;
  marketing: boolean;
}

/** A job outside its window: due again at `until`. */
export interface Deferral {
  until: Date;
  reason: string;
}

/**
 * Send windows (quiet hours) in the recipient's time zone. Applied at enqueue (the job is
 * scheduled for the window's next opening) and again by the worker on every claimed batch (a
 * retry, a fair-share slot or a window changed since enqueue can land outside it): a job
 * outside its window is deferred, never failed.
 */
@Injectable()
export class SendWindowsService {
  private readonly logger = new Logger(SendWindowsService.name);
  private readonly warned = new Set<string>();

  constructor(
    private readonly repository: SendWindowsRepository,
    private readonly projects: ProjectsService,
  ) {
    // notifyd 0.x's top-level send_window on PATCH /v1/admin/projects/:id is checked like any window.
    registerSettingRule('send_window', (value, field) => {
      const parsed = parseSendWindow(value, field);
      return 'window' in parsed ? { value: parsed.window } : parsed;
    });
  }

  /** The window of a request: its own (validated by the DTO), none when `false`, else the project's. */
  effective(request: unknown, projectId: string, projectWindow: unknown): SendWindow | null {
    if (request === false) return null;
    if (request !== undefined && request !== null) return this.valid(request, `request of project ${projectId}`);
    return projectWindow === undefined || projectWindow === null
      ? null
      : this.valid(projectWindow, `project ${projectId} settings`);
  }

  /**
   * Whether a window holds a job: `applies_to: all` holds every job; the default (`marketing`)
   * holds marketing jobs only, and a transactional message is never marketing.
   */
  holds(window: SendWindow | null, job: { marketing: boolean; transactional: boolean }): window is SendWindow {
    if (!window) return false;
    return window.applies_to === 'all' || (job.marketing && !job.transactional);
  }

  /** The zone a window is read in: the recipient's (when valid), else the window's own. */
  zoneFor(window: SendWindow, subscriberTimezone: string | null | undefined): string {
    return isValidTimeZone(subscriberTimezone) ? subscriberTimezone : window.tz;
  }

  /** At enqueue: the first instant at or after `notBefore` the job may be sent. */
  scheduleAt(
    window: SendWindow | null,
    job: { marketing: boolean; transactional: boolean },
    subscriberTimezone: string | null | undefined,
    notBefore: Date,
  ): Date {
    if (!this.holds(window, job)) return notBefore;
    return new Date(nextAllowed(notBefore.getTime(), window, this.zoneFor(window, subscriberTimezone)));
  }

  /**
   * The worker's check for a claimed batch: project windows and subscriber zones are read with
   * one query each (per-key queries if a batch read fails). Returns the jobs to defer.
   */
  async screen(jobs: readonly WindowedJob[], now = Date.now()): Promise<Map<string, Deferral>> {
    const deferrals = new Map<string, Deferral>();
    const needProject = jobs.filter((j) => j.payload.send_window === undefined || j.payload.send_window === null);
    const projectWindows = needProject.length
      ? await this.projectWindows([...new Set(needProject.map((j) => j.projectId))])
      : new Map<string, unknown>();
    const held: { job: WindowedJob; window: SendWindow }[] = [];
    for (const job of jobs) {
      const window = this.effective(job.payload.send_window, job.projectId, projectWindows.get(job.projectId));
      if (this.holds(window, { marketing: job.marketing, transactional: job.payload.transactional === true }))
        held.push({ job, window });
    }
    if (held.length === 0) return deferrals;
    const withSubscriber = held.filter((h) => h.job.subscriberId !== null);
    const zones = withSubscriber.length
      ? await this.timezones(
          withSubscriber.map((h) => ({ projectId: h.job.projectId, subscriberId: h.job.subscriberId! })),
        )
      : new Map<string, string>();
    for (const { job, window } of held) {
      const zone = this.zoneFor(
        window,
        job.subscriberId ? zones.get(subscriberKey(job.projectId, job.subscriberId)) : null,
      );
      const next = nextAllowed(now, window, zone);
      if (next > now) {
        deferrals.set(job.id, {
          until: new Date(next),
          reason: `outside send window ${window.start}–${window.end} (${zone}); deferred to ${new Date(next).toISOString()}`,
        });
      }
    }
    return deferrals;
  }

  /** Reads a project's stored window (validated; null when unset or invalid). */
  async projectWindow(projectId: string): Promise<SendWindow | null> {
    const raw = (await this.repository.projectWindows([projectId])).get(projectId);
    return raw === undefined || raw === null ? null : this.valid(raw, `project ${projectId} settings`);
  }

  /**
   * PUT /v1/send-window and set_send_window: checks a DTO-validated window (the zone, the
   * rules across fields; 422 naming what is wrong), stores it and returns it with its defaults.
   */
  async putProjectWindow(projectId: string, body: object): Promise<SendWindow> {
    const parsed = parseSendWindow({ ...body });
    if ('error' in parsed) throw ApiError.unprocessable('validation_failed', parsed.error);
    if (!(await this.setProjectWindow(projectId, parsed.window))) throw ApiError.notFound('Project', projectId);
    return parsed.window;
  }

  /** Stores a validated window (null clears it); false when the project does not exist. */
  async setProjectWindow(projectId: string, window: SendWindow | null): Promise<boolean> {
    const found = (await this.repository.setProjectWindow(projectId, window)) !== undefined;
    // The window lives in the project's settings, which authenticated requests carry (cached).
    if (found) this.projects.changed(projectId);
    return found;
  }

  private valid(raw: unknown, where: string): SendWindow | null {
    const parsed = parseSendWindow(raw);
    if ('window' in parsed) return parsed.window;
    // Only a window written around the API (e.g. raw settings) can be invalid: sending
    // without it beats holding every job forever; say so once per process and source.
    if (!this.warned.has(where)) {
      this.warned.add(where);
      this.logger.warn(`ignoring invalid send window in ${where}: ${parsed.error}`);
    }
    return null;
  }

  private async projectWindows(ids: string[]): Promise<Map<string, unknown>> {
    try {
      return await this.repository.projectWindows(ids);
    } catch (err) {
      this.logger.warn(`send window prefetch failed, reading project by project: ${(err as Error).message}`);
      const merged = new Map<string, unknown>();
      for (const id of ids) for (const [k, v] of await this.repository.projectWindows([id])) merged.set(k, v);
      return merged;
    }
  }

  private async timezones(pairs: { projectId: string; subscriberId: string }[]): Promise<Map<string, string>> {
    try {
      return await this.repository.subscriberTimezones(pairs);
    } catch (err) {
      this.logger.warn(`time zone prefetch failed, reading subscriber by subscriber: ${(err as Error).message}`);
      const merged = new Map<string, string>();
      for (const pair of pairs)
        for (const [k, v] of await this.repository.subscriberTimezones([pair])) merged.set(k, v);
      return merged;
    }
  }
}
