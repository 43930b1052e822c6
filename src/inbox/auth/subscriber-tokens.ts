import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { jwtVerify, SignJWT } from 'jose';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ApiError } from '../../common/errors/api-error.js';
import type { ProjectRef } from '../../projects/project.types.js';
import { SubscriberTokenVersions } from '../../subscribers/subscriber-token-versions.js';

/** notifyd's audience: a token for the inbox is good for nothing else. */
export const INBOX_AUDIENCE = 'notifyd:inbox';

/**
 * What a token was minted under: its project's epoch and its subscriber's token version. A
 * token is good while both still match the rows (issue 18: revocation, deletion, re-creation).
 * Tokens minted before generations existed carry neither and count as generation 0.
 */
export interface TokenGeneration {
  epoch: string;
  version: string;
}

export interface SubscriberClaims {
  projectId: string;
  subscriberId: string;
  generation: TokenGeneration;
  /** The token's `exp`: a stream it opens (or a ticket minted from it) ends then. */
  expiresAt: Date;
}

const GENERATION = /^\d{1,19}$/;

/** The longest a token lives (POST /v1/auth/subscriber-token's ttl_hours, 1–24). */
export const MAX_TOKEN_HOURS = 24;

/**
 * Subscriber tokens (notifyd §2.6): HS256 JWTs signed with JWT_SECRET, claims
 * {sub, project, pe (project epoch), sv (subscriber token version), aud: "notifyd:inbox", iat,
 * exp}, 1–24 h. A project's backend mints one per signed-in user and hands it to the browser;
 * it opens only that subscriber's inbox, until it expires or is revoked. Verification also
 * accepts JWT_PREVIOUS_SECRETS, so rotating JWT_SECRET does not sign everyone out.
 */
@Injectable()
export class SubscriberTokens {
  private readonly keys: Uint8Array[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly versions: SubscriberTokenVersions,
  ) {
    const secrets = config.auth.jwtSecret ? [config.auth.jwtSecret, ...config.auth.jwtPreviousSecrets] : [];
    this.keys = secrets.map((s) => new TextEncoder().encode(s));
  }

  async issue(
    project: ProjectRef,
    subscriberId: string,
    ttlHours: number,
  ): Promise<{ token: string; expiresAt: Date }> {
    const key = this.signingKey();
    const version = await this.versions.current(project.id, subscriberId);
    if (version === undefined) {
      throw new ApiError(
        HttpStatus.NOT_FOUND,
        'not_found',
        `Subscriber '${subscriberId.slice(0, 200)}' was not found in this project: create it with POST /v1/subscribers, then mint its token.`,
      );
    }
    const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
    const token = await new SignJWT({ project: project.id, pe: project.tokenEpoch, sv: version })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subscriberId)
      .setAudience(INBOX_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(key);
    return { token, expiresAt };
  }

  /**
   * The claims of a genuine, unexpired token (JWT_SECRET or one of JWT_PREVIOUS_SECRETS);
   * undefined otherwise. Whether it was revoked since is the caller's check (the rows).
   */
  async verify(token: string): Promise<SubscriberClaims | undefined> {
    for (const key of this.keys) {
      try {
        // exp and iat are required and at most MAX_TOKEN_HOURS apart (jose checks exp only when present): a
        // token signed without an expiry, or with a far one, is refused, as notifyd never mints one.
        const { payload } = await jwtVerify(token, key, {
          audience: INBOX_AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'iat'],
          maxTokenAge: `${MAX_TOKEN_HOURS}h`,
          // Replicas' clocks differ a little: a token minted on one must not be "issued in the future" on another.
          clockTolerance: 30,
        });
        if (payload.exp! - payload.iat! > MAX_TOKEN_HOURS * 3600) return undefined;
        if (typeof payload.sub !== 'string' || typeof payload.project !== 'string') return undefined;
        const epoch = payload.pe ?? '0';
        const version = payload.sv ?? '0';
        if (
          typeof epoch !== 'string' ||
          typeof version !== 'string' ||
          !GENERATION.test(epoch) ||
          !GENERATION.test(version)
        )
          return undefined;
        return {
          projectId: payload.project,
          subscriberId: payload.sub,
          generation: { epoch, version },
          expiresAt: new Date(payload.exp! * 1000),
        };
      } catch {
        // Not this key (or not a token at all): try the next one.
      }
    }
    return undefined;
  }

  private signingKey(): Uint8Array {
    if (!this.keys.length)
      throw ApiError.unavailable(
        'tokens_disabled',
        'Subscriber tokens need JWT_SECRET: set it (openssl rand -hex 24) and restart.',
      );
    return this.keys[0];
  }
}

/** A compact JWS has three base64url parts; project keys (sk_…) never do. */
export const looksLikeJwt = (value: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
