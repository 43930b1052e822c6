import { z } from 'zod';
import { defineSection } from '../define-section.js';
import { envEnum, envString, envUrl } from '../env-helpers.js';

export const DIGEST_TARGET_KINDS = ['slack', 'discord', 'telegram', 'email'] as const;
export type DigestTargetKind = (typeof DIGEST_TARGET_KINDS)[number];
export interface DigestTarget {
  kind: DigestTargetKind;
  /** Webhook URL (slack, discord), chat id or @channel (telegram), address (email). */
  to: string;
}

export const DIGEST_NOTIFY_LEVELS = ['critical', 'warning', 'info', 'always'] as const;
export type DigestNotifyLevel = (typeof DIGEST_NOTIFY_LEVELS)[number];

export const DIGEST_TARGET_HELP =
  'must be slack:<incoming webhook URL>, discord:<webhook URL>, telegram:<chat id or @channel> or email:<address>';

/** `slack:https://hooks…`, `telegram:-100123`, `email:ops@example.com` → a target, or undefined. */
export function parseDigestTarget(value: string): DigestTarget | undefined {
  const colon = value.indexOf(':');
  if (colon < 0) return undefined;
  const kind = value.slice(0, colon).trim().toLowerCase() as DigestTargetKind;
  const to = value.slice(colon + 1).trim();
  if (!DIGEST_TARGET_KINDS.includes(kind) || !to || to.length > 2_048) return undefined;
  if (kind === 'slack' || kind === 'discord') {
    try {
      if (!['http:', 'https:'].includes(new URL(to).protocol)) return undefined;
    } catch {
      return undefined;
    }
  }
  if (kind === 'telegram' && !/^(-?\d{1,20}|@[A-Za-z0-9_]{5,64})$/.test(to)) return undefined;
  if (kind === 'email' && !/^[^\s@]+@[^\s@]+$/.test(to)) return undefined;
  return { kind, to };
}

const DURATION = /^(\d{1,5})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MIN_EVERY_MS = 5 * 60_000;
const MAX_EVERY_MS = 30 * 86_400_000;

export const digestSection = defineSection(
  {
    /** Where the scheduled digest goes; unset = no scheduled digest (on demand still works with a `to`). */
    DIGEST_NOTIFY: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() ? v.trim() : undefined),
      z
        .string()
        .refine((v) => parseDigestTarget(v) !== undefined, { message: DIGEST_TARGET_HELP })
        .optional(),
    ),
    /** How often: 30m, 6h, 1d… (5 minutes to 30 days, default 1d); the digest's window follows it. */
    DIGEST_NOTIFY_EVERY: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() ? v.trim().toLowerCase() : undefined),
      z
        .string()
        .regex(DURATION, { message: 'must be a duration such as 30m, 6h or 1d' })
        .refine(
          (v) => {
            const match = DURATION.exec(v);
            if (!match) return true; // the regex above already reported it
            const [, n, unit] = match;
            const ms = Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
            return ms >= MIN_EVERY_MS && ms <= MAX_EVERY_MS;
          },
          { message: 'must be between 5m and 30d' },
        )
        .optional(),
    ),
    /** Send only when a finding reaches this severity: critical, warning (default), info, or always. */
    DIGEST_NOTIFY_LEVEL: envEnum(DIGEST_NOTIFY_LEVELS, 'warning'),
    /** Bot token for telegram: targets (from @BotFather). */
    DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN: envString({
      pattern: /^\d+:[A-Za-z0-9_-]{20,}$/,
      hint: 'must be a bot token such as 123456:ABC-DEF… (from @BotFather)',
    }),
    /** Telegram Bot API base URL (a self-hosted Bot API server, or a fake in tests). */
    DIGEST_NOTIFY_TELEGRAM_API_URL: envUrl({ protocols: ['http', 'https'] }),
  },
  (env) => {
    const target = env.DIGEST_NOTIFY ? parseDigestTarget(env.DIGEST_NOTIFY) : undefined;
    if (target?.kind === 'telegram' && !env.DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN) {
      throw new Error(
        'Invalid configuration:\n  - DIGEST_NOTIFY is a telegram: target but DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN is not set: set it to the bot token from @BotFather.',
      );
    }
    const every = env.DIGEST_NOTIFY_EVERY ?? '1d';
    const [, n, unit] = DURATION.exec(every)!;
    return {
      target,
      everyMs: Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS],
      level: env.DIGEST_NOTIFY_LEVEL as DigestNotifyLevel,
      telegramBotToken: env.DIGEST_NOTIFY_TELEGRAM_BOT_TOKEN,
      telegramApiUrl: (env.DIGEST_NOTIFY_TELEGRAM_API_URL ?? 'https://api.telegram.org').replace(/\/+$/, ''),
    };
  },
);

export type DigestConfig = ReturnType<typeof digestSection.build>;
