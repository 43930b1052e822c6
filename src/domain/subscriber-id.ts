/** Subscriber ids are the caller's own user ids: any printable text without spaces at the ends. */
export const SUBSCRIBER_ID_PATTERN = /^[^\s\x00-\x1f\x7f](?:[^\x00-\x1f\x7f]{0,253}[^\s\x00-\x1f\x7f])?$/;
