import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { parseSendWindow } from './send-window.js';

/** A send window object (see parseSendWindow), or `false` to send outside any window. */
export const IsSendWindowOrFalse = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSendWindowOrFalse',
      validator: {
        validate: (value) => value === false || 'window' in parseSendWindow(value),
        defaultMessage: (args) => {
          const parsed = parseSendWindow(args?.value, args?.property ?? 'send_window');
          return 'error' in parsed ? parsed.error : `${args?.property} must be a send window or false`;
        },
      },
    },
    options,
  );

/** OpenAPI schema of a send window (the DTO field holds an object or false). */
export const SEND_WINDOW_SCHEMA: NonNullable<ApiPropertyOptions['oneOf']>[number] = {
  type: 'object',
  required: ['start', 'end'],
  properties: {
    start: {
      type: 'string',
      pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
      example: '08:00',
      description: 'Opening time, 24-hour local time',
    },
    end: {
      type: 'string',
      pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
      example: '21:00',
      description: 'Closing time (exclusive); before start = overnight window',
    },
    tz: {
      type: 'string',
      example: 'Europe/Paris',
      description: 'IANA zone used when the recipient has none; default UTC',
    },
    days: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: 7 },
      example: [1, 2, 3, 4, 5],
      description: 'ISO weekdays the window opens on; default all',
    },
    applies_to: {
      type: 'string',
      enum: ['marketing', 'all'],
      description: 'marketing (default): bulk/campaign jobs only; all: every job',
    },
  },
};
