/**
 * The API calls a digest finding's action names that the console can make with one click. Only
 * calls that need no body and no choice are offered (resuming or pausing a named lane); anything
 * else stays text for the operator to read. The read-only session is offered none.
 */
const CALLS = [
  { pattern: /POST (\/v1\/admin\/lanes\/([A-Za-z0-9_:-]+)\/resume)\b/g, label: (m) => `Resume ${m[2]}` },
  { pattern: /POST (\/v1\/admin\/lanes\/([A-Za-z0-9_:-]+)\/pause)\b/g, label: (m) => `Pause ${m[2]}` },
];

export function actionCalls(action) {
  const calls = [];
  for (const { pattern, label } of CALLS) {
    for (const match of String(action ?? '').matchAll(pattern)) calls.push({ path: match[1], label: label(match) });
  }
  return calls;
}
