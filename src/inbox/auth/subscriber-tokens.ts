import { Inject, Injectable } from '@nestjs/common';
import { jwtVerify, SignJWT } from 'jose';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ApiError } from '../../common/errors/api-error.js';

/** notifyd's audience: a token for the inbox is good for nothing else. */
export const INBOX_AUDIENCE = 'notifyd:inbox';

/**
 * Subscriber tokens (notifyd §2.6): HS256 JWTs signed with JWT_SECRET, claims
 * {sub, project, aud: "notifyd:inbox", iat, exp}, 1–24 h. A project's backend mints one per
 * signed-in user and hands it to the browser; it opens only that subscriber's inbox.
 */
@Injectable()
export class SubscriberTokens {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async issue(projectId: string, subscriberId: string, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
    const token = await new SignJWT({ project: projectId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subscriberId)
      .setAudience(INBOX_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key());
    return { token, expiresAt };
  }

  /** The project and subscriber a token stands for; undefined when it is invalid or expired. */
  async verify(token: string): Promise<{ projectId: string; subscriberId: string } | undefined> {
    if (!this.config.auth.jwtSecret) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key(), { audience: INBOX_AUDIENCE, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.project !== 'string') return undefined;
      return { projectId: payload.project, subscriberId: payload.sub };
    } catch {
      return undefined;
    }
  }

  private key(): Uint8Array {
    if (!this.config.auth.jwtSecret) throw ApiError.unavailable('tokens_disabled', 'Subscriber tokens need JWT_SECRET: set it (openssl rand -hex 32) and restart.');
    return new TextEncoder().encode(this.config.auth.jwtSecret);
  }
}

/** A compact JWS has three base64url parts; project keys (sk_…) never do. */
export const looksLikeJwt = (value: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
