import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  buildMessage,
  IsArray,
  IsIn,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';
import { CHANNELS } from '../../domain/channels.js';
import { PRIORITY_HELP, parsePriority } from '../../domain/priority.js';
import { CHANNEL_LIST, isChannel, normaliseChannel } from '../../domain/channels.js';
import { IsText } from './bounded.js';
import { DocumentConstraints } from './openapi-constraints.js';
import { isRfc3339 } from './rfc3339.js';
import { stacked } from './stacked.js';

/**
 * A class-validator decorator accepting the values `accepts` says yes to; its message is the
 * field's name (with class-validator's "each value in" for arrays), then `help`.
 */
export const acceptedBy =
  (name: string, accepts: (value: unknown) => boolean, help: string) =>
  (options?: ValidationOptions): PropertyDecorator =>
    ValidateBy(
      {
        name,
        validator: {
          validate: accepts,
          defaultMessage: buildMessage((each) => `${each}$property ${help}`, options),
        },
      },
      options,
    );

export const IsRfc3339 = acceptedBy(
  'isRfc3339',
  isRfc3339,
  'must be an RFC 3339 date-time with a time zone, e.g. 2026-12-01T09:00:00Z or 2026-12-01T10:00:00+01:00',
);

export const IsPriority = acceptedBy('isPriority', (value) => parsePriority(value) !== undefined, PRIORITY_HELP);

/** A DTO field holding one channel: normalised (case, aliases), then one of CHANNELS. */
export const IsOneChannel = () =>
  applyDecorators(
    Transform(({ value }) => normaliseChannel(value)),
    IsIn(CHANNELS, { message: `channel must be one of ${CHANNELS.join(', ')}` }),
  );

/**
 * A DTO field holding channels as an array (a project's): each one of CHANNELS, none twice.
 * Not normalised, unlike IsOneChannel: the names must be exact. States `uniqueItems` for the
 * OpenAPI schema itself: the swagger plugin sees ArrayUnique only written on the property.
 */
export const IsChannelArray = () =>
  stacked(
    IsArray(),
    ArrayUnique(),
    ArrayMaxSize(CHANNELS.length),
    IsIn(CHANNELS, { each: true, message: `each value in $property must be one of ${CHANNELS.join(', ')}` }),
    DocumentConstraints({ uniqueItems: true }),
  );

/**
 * An `idempotency_key`: 1–`max` printable ASCII characters without spaces (a batch's is shorter:
 * each of its jobs' keys appends the subscriber and channel). Pattern and message follow `max`.
 */
export const IsIdempotencyKey = (max: number) =>
  IsText({
    pattern: new RegExp(`^[\\x21-\\x7e]{1,${max}}$`),
    message: `must be 1–${max} printable ASCII characters without spaces`,
  });

/** notifyd's `channel`: one channel or a comma-separated list. */
export const IsChannelList = acceptedBy(
  'isChannelList',
  (value) => typeof value === 'string' && value.split(',').every((part) => isChannel(normaliseChannel(part))),
  `must be one channel or a comma-separated list of: ${CHANNEL_LIST}`,
);

/**
 * A class-validator decorator from a function that says what is wrong with a value (undefined
 * when nothing is). The message is the field's name, then the problem: "tags must be …", or,
 * for a problem that names an element itself ("[2] must be …"), "subscribers[2] must be …".
 */
export const validatedBy =
  (name: string, problem: (value: unknown) => string | undefined) =>
  (options?: ValidationOptions): PropertyDecorator =>
    ValidateBy(
      {
        name,
        validator: {
          validate: (value) => problem(value) === undefined,
          defaultMessage: (args) => {
            const text = problem(args?.value) ?? 'is not valid';
            return `${args?.property}${text.startsWith('[') ? '' : ' '}${text}`;
          },
        },
      },
      options,
    );

/** Header names per RFC 5322 (printable, no colon or space). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,76}$/;
/**
 * Headers a caller may not set: they would redirect the message, forge its sender or break
 * the signature. List-Unsubscribe is allowed (RFC 8058 lets a caller bring its own).
 */
const RESERVED_HEADERS = new Set([
  'bcc',
  'cc',
  'to',
  'from',
  'sender',
  'reply-to',
  'return-path',
  'subject',
  'date',
  'message-id',
  'dkim-signature',
  'content-type',
  'content-transfer-encoding',
  'mime-version',
  'received',
]);

export function headerMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'must be an object of header name → text';
  const entries = Object.entries(value);
  if (entries.length > 50) return 'may hold at most 50 headers';
  for (const [name, text] of entries) {
    if (!HEADER_NAME.test(name)) return `has an invalid header name "${name.slice(0, 40)}" (letters, digits and -)`;
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      return `may not set ${name}: use the dedicated field (to, cc, reply_to, subject) instead`;
    if (typeof text !== 'string') return `header ${name} must be text`;
    if (/[\r\n\0]/.test(text)) return `header ${name} may not contain line breaks`;
    if (text.length > 2000) return `header ${name} is longer than 2000 characters`;
  }
  return undefined;
}

export const IsHeaderMap = validatedBy('isHeaderMap', headerMapProblem);

/** SMS sender: E.164, or alphanumeric 1–11 ASCII letters, digits and spaces with at least one letter. */
export function isSmsSender(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/^\+[1-9]\d{6,14}$/.test(value)) return true;
  return /^[A-Za-z0-9 ]{1,11}$/.test(value) && /[A-Za-z]/.test(value);
}

export const IsSmsSender = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSmsSender',
      validator: {
        validate: isSmsSender,
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be an E.164 number (+33612345678) or 1–11 letters, digits and spaces with at least one letter (Acme)`,
          options,
        ),
      },
    },
    options,
  );

/** No CR or LF: the value ends up in a header (subject, display name). */
export const IsSingleLine = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSingleLine',
      validator: {
        validate: (value) => typeof value !== 'string' || !/[\r\n]/.test(value),
        defaultMessage: buildMessage((each) => `${each}$property must be a single line (no line breaks)`, options),
      },
    },
    options,
  );
