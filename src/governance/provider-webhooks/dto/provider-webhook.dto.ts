/** What notifyd answers a provider: 200 for new events and for replays alike. */
export class ProviderWebhookResponseDto {
  /** @example true */
  success!: boolean;
  /**
   * Events seen for the first time: stored on the job and applied.
   * @example 1
   */
  recorded!: number;
  /**
   * Events already received before (provider retries): nothing changed.
   * @example 0
   */
  duplicates!: number;
}
