/** Template ids: the caller's own names, 1–128 of letters, digits, `_ - . :`. */
export const TEMPLATE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const TEMPLATE_ID_HELP = 'must be 1–128 characters of letters, digits, _, -, . and : (e.g. "order_shipped")';
