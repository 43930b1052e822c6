import { Injectable } from '@nestjs/common';

/** An admin change to a project, as the audit log records it. */
export interface ProjectAuditLine {
  projectId: string;
  /** Who acted (`admin`, `mcp`…), from the caller's `Actor`. */
  actor: string;
  /** `project.created`, `project.updated`, `project.key_rotated`… */
  action: string;
  resource: string;
  metadata?: Record<string, unknown>;
  ip?: string;
}

type Listener = (line: ProjectAuditLine) => Promise<void>;

/**
 * Where ProjectsService reports its admin changes for the audit log. AuditModule subscribes:
 * audit sits above projects (its controller uses the guards in projects/auth), so projects tells
 * it rather than importing it. Awaited like the direct call it replaces, so the line is written
 * before the response; AuditService.record logs its own failures and never throws here.
 */
@Injectable()
export class ProjectAuditEvents {
  private readonly listeners: Listener[] = [];

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  async changed(line: ProjectAuditLine): Promise<void> {
    for (const listener of this.listeners) await listener(line);
  }
}
