import { Injectable } from '@nestjs/common';
import { SendWindowsService } from '../../../governance/send-windows/send-windows.service.js';
import type { AdmissionRequest, Target } from '../admission.types.js';

/**
 * Send windows (quiet hours): each target's first send time, requestedAt moved to the next
 * opening of the window in the recipient's zone (the request's own window, `false` for none,
 * else the project's). The worker checks the window again when it claims the job.
 */
@Injectable()
export class SendWindowStep {
  constructor(private readonly windows: SendWindowsService) {}

  apply(request: AdmissionRequest, targets: readonly Target[]): void {
    const window = this.windows.effective(
      request.payload.send_window,
      request.project.id,
      request.project.settings.send_window,
    );
    if (!window) return;
    const rule = { marketing: request.marketing, transactional: request.payload.transactional === true };
    for (const t of targets)
      if (!t.skip) t.scheduledAt = this.windows.scheduleAt(window, rule, t.timezone, request.requestedAt);
  }
}
