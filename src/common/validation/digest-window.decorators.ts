import { IsOptional } from 'class-validator';
import { DIGEST_FORMATS, DIGEST_WINDOW_ALIASES, DIGEST_WINDOWS } from '../../domain/digest-windows.js';
import { IsText } from './bounded.js';
import { DocumentConstraints } from './openapi-constraints.js';
import { stacked } from './stacked.js';

/*
 * The `window` and `format` of an operator report, as a DTO declares them. The validation pipe
 * only bounds them (text, at most 10 characters: a 422); parseDigestWindow and parseDigestFormat
 * then refuse anything else with their own 400 naming the choices, and accept any case. What
 * these add is the OpenAPI document's list of the values, so clients see the closed set.
 */

/** An optional report window: 1h, 6h, 24h, 7d or 30d, or the alias 1d (= 24h). */
export const IsDigestWindow = () =>
  stacked(
    IsOptional(),
    IsText({ max: 10 }),
    DocumentConstraints({ enum: [...Object.keys(DIGEST_WINDOWS), ...Object.keys(DIGEST_WINDOW_ALIASES)] }),
  );

/** An optional report format: json or markdown. */
export const IsDigestFormat = () =>
  stacked(IsOptional(), IsText({ max: 10 }), DocumentConstraints({ enum: DIGEST_FORMATS }));
