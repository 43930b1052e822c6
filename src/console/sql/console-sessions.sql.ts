/** Stores a new session ($1 token hash, $2 role, $3 key hash, $4 lifetime in seconds). */
export const INSERT_SESSION = `
  INSERT INTO console_sessions (token_hash, role, key_hash, expires_at)
  VALUES ($1, $2, $3, now() + make_interval(secs => $4))
  RETURNING expires_at`;

/** The live session of a token hash (primary key lookup); expired rows never answer. */
export const SELECT_SESSION = `
  SELECT role, key_hash, expires_at FROM console_sessions
   WHERE token_hash = $1 AND expires_at > now()`;

/** Sign-out: the session ends on every replica at once (primary key). */
export const DELETE_SESSION = `DELETE FROM console_sessions WHERE token_hash = $1`;

/** Expired sessions, deleted at each sign-in (console_sessions_expires_idx). */
export const DELETE_EXPIRED_SESSIONS = `DELETE FROM console_sessions WHERE expires_at <= now()`;
