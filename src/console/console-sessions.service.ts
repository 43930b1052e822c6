import { Inject, Injectable } from '@nestjs/common';
import { hashKey } from '../projects/auth/api-keys.js';
import { type OperatorRole, operatorRole } from '../projects/auth/admin-auth.guard.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Db } from '../database/db.js';
import { ProjectsService } from '../projects/projects.service.js';
import { DELETE_EXPIRED_SESSIONS, DELETE_SESSION, INSERT_SESSION, SELECT_SESSION } from './sql/console-sessions.sql.js';
import { newSessionToken, SESSION_TTL_SECS, sessionTokenHash } from './session-cookie.js';

export interface NewSession {
  token: string;
  role: OperatorRole;
  expiresAt: Date;
}

/**
 * The console's sessions, in PostgreSQL so that every replica knows them and a sign-out ends
 * the session everywhere at once. A session stands for the operator key it was made from (its
 * role, and the hash of that key: a changed key ends its sessions).
 */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Db,
    private readonly projects: ProjectsService,
  ) {}

  async signIn(key: string): Promise<NewSession> {
    if (!this.config.auth.adminApiKey) {
      throw ApiError.unavailable(
        'admin_disabled',
        'The console is disabled on this instance: set ADMIN_API_KEY and restart.',
      );
    }
    const role = operatorRole(this.config, key);
    if (!role) {
      if (await this.projects.authenticate(key)) {
        throw ApiError.forbidden(
          'A project key cannot sign in to the console: use the admin key (ADMIN_API_KEY) or the read-only key (READONLY_API_KEY).',
        );
      }
      throw ApiError.unauthorized(
        'Invalid key: sign in with the admin key (ADMIN_API_KEY) or the read-only key (READONLY_API_KEY).',
      );
    }
    await this.db.exec(DELETE_EXPIRED_SESSIONS);
    const token = newSessionToken();
    const row = await this.db.one<{ expires_at: Date }>(INSERT_SESSION, [
      sessionTokenHash(token),
      role,
      hashKey(key),
      SESSION_TTL_SECS,
    ]);
    return { token, role, expiresAt: row!.expires_at };
  }

  /** The role of a live session, or undefined (unknown, expired, signed out, or its key changed since). */
  async resolve(token: string): Promise<{ role: OperatorRole; expiresAt: Date } | undefined> {
    const row = await this.db.one<{ role: OperatorRole; key_hash: string; expires_at: Date }>(SELECT_SESSION, [
      sessionTokenHash(token),
    ]);
    if (!row) return undefined;
    const current = row.role === 'admin' ? this.config.auth.adminApiKey : this.config.auth.readonlyApiKey;
    if (!current || hashKey(current) !== row.key_hash) return undefined;
    return { role: row.role, expiresAt: row.expires_at };
  }

  async signOut(token: string): Promise<void> {
    await this.db.exec(DELETE_SESSION, [sessionTokenHash(token)]);
  }
}
