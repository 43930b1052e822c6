import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { SecretBox } from '../project-providers/secret-box.js';

/**
 * Bot tokens and webhook secrets sealed at rest the way project provider credentials are
 * (SecretBox: AES-256-GCM under NOTIFYD_SECRET_KEY, older keys readable while listed). The
 * associated data binds a value to its owner and field, so a sealed token copied to another
 * row or field does not open.
 */
@Injectable()
export class RouteSecrets {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.secrets.current, config.secrets.previous);
  }

  /** 503 when no key is set: nothing can be stored or read (notifyd 0.x answered the same). */
  require(): void {
    if (!this.box.enabled) {
      throw ApiError.unavailable(
        'secret_key_not_configured',
        'Per-user Telegram bots need NOTIFYD_SECRET_KEY (32 random bytes: openssl rand -base64 32) to encrypt bot tokens; an operator sets it and restarts.',
      );
    }
  }

  get enabled(): boolean {
    return this.box.enabled;
  }

  get keyId(): string {
    return this.box.currentKeyId!;
  }

  seal(projectId: string, owner: string, field: Field, value: string): string {
    return this.box.seal(value, context(projectId, owner, field));
  }

  open(projectId: string, owner: string, field: Field, sealed: string): string {
    return this.box.open(sealed, context(projectId, owner, field));
  }
}

type Field = 'bot_token' | 'webhook_secret';

const context = (projectId: string, owner: string, field: Field) => `telegram/${projectId}/${owner}/${field}`;
