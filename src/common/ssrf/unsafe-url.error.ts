/**
 * A user-supplied URL that notifyd refuses to contact (private target, plain http in
 * production, a scheme other than http(s), credentials in the URL). Raised before any
 * connection is opened; connectors map it to a permanent failure.
 */
export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}
