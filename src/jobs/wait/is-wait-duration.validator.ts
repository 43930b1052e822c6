import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';
import { parseWait, WAIT_HELP } from './wait-duration.js';

/** `wait`: how long to hold the answer for an outcome (validated, so a bad value is a 422 that names the fix). */
export const IsWaitDuration = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isWaitDuration',
      validator: {
        validate: (value) => parseWait(value) !== undefined,
        defaultMessage: buildMessage((each) => `${each}$property ${WAIT_HELP}`, options),
      },
    },
    options,
  );
