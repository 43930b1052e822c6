import { IsText } from '../../common/validation/bounded.js';

export class ConsoleSignInDto {
  /** The admin key (ADMIN_API_KEY) or the read-only key (READONLY_API_KEY). */
  @IsText({ min: 1, max: 512 })
  key: string;
}

export class ConsoleSessionDto {
  /** admin or readonly: what the session may do is what its key may do. */
  role: string;
  /** Send it as X-CSRF-Token with every change made with the session. */
  csrf_token: string;
  expires_at: string;
}
