import { Injectable } from '@nestjs/common';
import type { Channel } from '../domain/channels.js';
import { Db } from '../database/db.js';
import type { RecipientCap } from './caps/cap-rules.js';
import type { PreferenceRow } from './preferences/preference.types.js';
import type { ActiveSuppression } from './suppressions/suppressions.repository.js';
import { sendChecksSql } from './sql/send-checks.sql.js';

export interface SendCheckRows {
  suppressions: ActiveSuppression[];
  preferences: PreferenceRow[];
  caps: RecipientCap[];
}

/** The rows /v1/send checks, read together (see sendChecksSql). */
@Injectable()
export class SendChecksRepository {
  constructor(private readonly db: Db) {}

  async read(
    projectId: string,
    keys: readonly { channel: Channel; address: string }[],
    preferencesOf: string | null,
    withCaps: boolean,
  ): Promise<SendCheckRows> {
    const oneKey = keys.length === 1;
    const params: unknown[] = oneKey
      ? [projectId, keys[0].channel, keys[0].address]
      : [projectId, keys.map((k) => k.channel), keys.map((k) => k.address)];
    if (preferencesOf !== null) params.push(preferencesOf);
    const row = (await this.db.one<SendCheckRows>(sendChecksSql(oneKey, preferencesOf !== null, withCaps), params))!;
    // jsonb carries timestamps as text.
    return { ...row, preferences: row.preferences.map((p) => ({ ...p, updatedAt: new Date(p.updatedAt) })) };
  }
}
