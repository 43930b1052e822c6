import { acceptedBy } from '../../common/validation/validators.js';
import { parseWait, WAIT_HELP } from './wait-duration.js';

/** `wait`: how long to hold the answer for an outcome (validated, so a bad value is a 422 that names the fix). */
export const IsWaitDuration = acceptedBy('isWaitDuration', (value) => parseWait(value) !== undefined, WAIT_HELP);
