import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.js';
import * as sql from './sql/telegram-routes.sql.js';
import type { CredentialRow, DestinationRow, LinkKind, LookupRow, RouteForSend } from './telegram-route.types.js';

export interface NewCredential {
  projectId: string;
  owner: string;
  botId: number;
  botUsername: string;
  botTokenSealed: string;
  tokenHint: string;
  connectionId: string;
  webhookSecretSealed: string;
  keyId: string;
}

@Injectable()
export class TelegramRoutesRepository {
  constructor(private readonly db: Db) {}

  credential(projectId: string, owner: string): Promise<CredentialRow | undefined> {
    return this.db.one<CredentialRow>(sql.GET_CREDENTIAL, [projectId, owner]);
  }

  credentialByConnection(connectionId: string): Promise<CredentialRow | undefined> {
    return this.db.one<CredentialRow>(sql.CREDENTIAL_BY_CONNECTION, [connectionId]);
  }

  async upsertCredential(c: NewCredential): Promise<CredentialRow> {
    return (await this.db.one<CredentialRow>(sql.UPSERT_CREDENTIAL, [
      c.projectId,
      c.owner,
      c.botId,
      c.botUsername,
      c.botTokenSealed,
      c.tokenHint,
      c.connectionId,
      c.webhookSecretSealed,
      c.keyId,
    ]))!;
  }

  /** Telegram took the webhook to connectionId: the row as stored, or undefined when a later PUT moved it on. */
  markWebhookRegistered(id: string, connectionId: string): Promise<CredentialRow | undefined> {
    return this.db.one<CredentialRow>(sql.MARK_WEBHOOK_REGISTERED, [id, connectionId]);
  }

  /**
   * Undo a PUT whose setWebhook was refused (the row still has its connection id): the previous
   * bot and, when the PUT had dropped it, its chat come back; without a previous bot the row goes.
   * One transaction. Link tokens the PUT dropped with another bot are not brought back.
   */
  undoPut(
    stored: Pick<CredentialRow, 'id' | 'connectionId'>,
    previous: CredentialRow | undefined,
    previousDestination: DestinationRow | undefined,
  ): Promise<boolean> {
    return this.db.transaction(async (runner) => {
      if (!previous)
        return (await this.db.exec(sql.DELETE_UNREGISTERED_CREDENTIAL, [stored.id, stored.connectionId], runner)) > 0;
      const restored = await this.db.exec(
        sql.RESTORE_CREDENTIAL,
        [
          stored.id,
          stored.connectionId,
          previous.botId,
          previous.botUsername,
          previous.botTokenSealed,
          previous.tokenHint,
          previous.connectionId,
          previous.webhookSecretSealed,
          previous.webhookRegistered,
          previous.keyId,
          previous.updatedAt,
        ],
        runner,
      );
      if (restored > 0 && previousDestination) {
        const d = previousDestination;
        await this.db.exec(
          sql.RESTORE_DESTINATION,
          [d.id, d.projectId, d.owner, d.credentialId, d.address, d.threadId, d.verified, d.createdAt],
          runner,
        );
      }
      return restored > 0;
    });
  }

  async deleteCredential(c: Pick<CredentialRow, 'projectId' | 'owner' | 'id'>): Promise<boolean> {
    return (await this.db.exec(sql.DELETE_CREDENTIAL, [c.projectId, c.owner, c.id])) > 0;
  }

  destination(projectId: string, owner: string): Promise<DestinationRow | undefined> {
    return this.db.one<DestinationRow>(sql.GET_DESTINATION, [projectId, owner]);
  }

  async upsertDestination(d: Omit<DestinationRow, 'id' | 'createdAt'>): Promise<DestinationRow> {
    return (await this.db.one<DestinationRow>(sql.UPSERT_DESTINATION, [
      d.projectId,
      d.owner,
      d.credentialId,
      d.address,
      d.threadId,
      d.verified,
    ]))!;
  }

  async deleteDestination(projectId: string, owner: string): Promise<boolean> {
    return (await this.db.exec(sql.DELETE_DESTINATION, [projectId, owner])) > 0;
  }

  /**
   * A new link token for the owner's bot, unless one was made less than `minGapMs` ago: then
   * the milliseconds left to wait. Earlier tokens are deleted (one active token per owner).
   */
  newLinkToken(
    c: CredentialRow,
    kind: LinkKind,
    tokenHash: string,
    ttlSeconds: number,
    minGapMs: number,
  ): Promise<{ expiresAt: Date } | { waitMs: number }> {
    return this.db.transaction(async (runner) => {
      await this.db.exec(sql.LOCK_CREDENTIAL, [c.id], runner);
      const last = (await this.db.one<{ createdAt: Date | null }>(sql.LAST_LINK_TOKEN_AT, [c.id], runner))?.createdAt;
      const since = last ? Date.now() - new Date(last).getTime() : Infinity;
      if (since < minGapMs) return { waitMs: minGapMs - since };
      await this.db.exec(sql.DELETE_LINK_TOKENS, [c.id], runner);
      return (await this.db.one<{ expiresAt: Date }>(
        sql.INSERT_LINK_TOKEN,
        [c.projectId, c.owner, c.id, kind, tokenHash, ttlSeconds],
        runner,
      ))!;
    });
  }

  consumeLinkToken(
    tokenHash: string,
    credentialId: string,
  ): Promise<{ projectId: string; owner: string; kind: LinkKind } | undefined> {
    return this.db.one(sql.CONSUME_LINK_TOKEN, [tokenHash, credentialId]);
  }

  lookup(projectId: string, owners: readonly string[]): Promise<LookupRow[]> {
    return this.db.rows<LookupRow>(sql.LOOKUP_DESTINATIONS, [projectId, owners]);
  }

  sealedWithOtherKeys(
    keyId: string,
    afterId: string,
    limit: number,
  ): Promise<Pick<CredentialRow, 'id' | 'projectId' | 'owner' | 'botTokenSealed' | 'webhookSecretSealed' | 'keyId'>[]> {
    return this.db.rows(sql.SEALED_WITH_OTHER_KEYS, [keyId, afterId, limit]);
  }

  async reseal(
    id: string,
    fromKeyId: string,
    botTokenSealed: string,
    webhookSecretSealed: string,
    keyId: string,
  ): Promise<boolean> {
    return (await this.db.exec(sql.RESEAL_CREDENTIAL, [id, fromKeyId, botTokenSealed, webhookSecretSealed, keyId])) > 0;
  }

  routesForSend(keys: readonly { routeId: string; projectId: string }[]): Promise<RouteForSend[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.db.rows<RouteForSend>(sql.ROUTES_FOR_SEND, [keys.map((k) => k.routeId), keys.map((k) => k.projectId)]);
  }
}
