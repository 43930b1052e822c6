import { IsText } from '../../common/validation/bounded.js';
import { PROJECT_ID_PATTERN } from '../project.types.js';

/** What a project id is, as a refused one is told. */
export const PROJECT_ID_HELP =
  'must be 1–63 lowercase letters, digits, - or _, starting with a letter or digit (e.g. "acme")';

/**
 * A field naming a project: the id of a new one, the project an operator acts for, or a filter.
 * PROJECT_ID_PATTERN everywhere, so a misspelt filter is refused naming the field instead of
 * matching nothing, and the OpenAPI document states the pattern.
 */
export const IsProjectId = () => IsText({ pattern: PROJECT_ID_PATTERN, message: PROJECT_ID_HELP });
