/** How one channel stands for the calling project. Provider names only, never settings or secrets. */
export class ChannelStatusDto {
  /**
   * The channel is in the project's channel list (`channels`, set with PATCH
   * /v1/admin/projects/{id}). Informational: /v1/send does not enforce it.
   * @example true
   */
  allowed: boolean;
  /**
   * This instance delivers the channel: /v1/send will not refuse it. Offer a channel to users
   * when it is both allowed and configured.
   * @example true
   */
  configured: boolean;
  /**
   * The provider the project's messages on this channel go through: its own account's when it
   * has one, else the instance's; null when the channel is not configured.
   * @example "resend"
   */
  provider: string | null;
  /**
   * The project sends this channel through its own provider account (PUT
   * /v1/admin/projects/{id}/providers/{channel}) rather than the instance's.
   * @example false
   */
  own_account: boolean;
  /**
   * The instance's fallback provider for this channel (`<CHANNEL>_FALLBACK_PROVIDER`), used when
   * the primary refuses with a transient or rate-limit error; null when there is none or the
   * project uses its own account (which has no fallback).
   * @example "postmark"
   */
  fallback_provider: string | null;
  /**
   * Why /v1/send refuses the channel, naming the variable to set; null when it is configured.
   * @example null
   */
  reason: string | null;
}

/** One entry per channel notifyd knows. */
export class ChannelReportDto {
  email: ChannelStatusDto;
  sms: ChannelStatusDto;
  whatsapp: ChannelStatusDto;
  push: ChannelStatusDto;
  in_app: ChannelStatusDto;
  telegram: ChannelStatusDto;
  slack: ChannelStatusDto;
  discord: ChannelStatusDto;
}

export class ChannelsResponseDto {
  channels: ChannelReportDto;
}
