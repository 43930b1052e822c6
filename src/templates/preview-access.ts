import { ApiError } from '../common/errors/api-error.js';

/**
 * The read-only operator key may preview any project's templates, but not for a stored
 * subscriber: that render shows the subscriber's profile (full addresses, `data` such as Slack
 * or Discord webhook URLs) which its subscriber views withhold from it. Vars render as before.
 */
export function refuseReaderSubscriberPreview(subscriberId: string | undefined, readOnly: boolean): void {
  if (subscriberId !== undefined && readOnly)
    throw ApiError.forbidden(
      'Read-only key: subscriber_id renders a stored subscriber’s profile, which needs the admin key (ADMIN_API_KEY); preview with vars instead.',
    );
}
