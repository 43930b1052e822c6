import type { Connector, DeliveryResult, OutboundMessage } from '../../src/connectors/connector.js';
import type { FakeAnswer } from '../fakes/provider-fake.js';

/**
 * A row of a one-message connector's error table: the fake's answer, and the outcome kind,
 * dead-recipient flag, provider code and wait the connector must make of it.
 */
export type ClassificationRow = [
  label: string,
  answer: FakeAnswer,
  kind: string,
  dead: boolean,
  code: string | undefined,
  retryAfterMs?: number,
];

/**
 * Sends one message per row straight to the connector, each to a number of its own
 * (`prefix` and the row's index in four digits) that the fake answers as the row says.
 * Returns the connector's result for each row, in order.
 */
export async function sendEachRow(
  connector: Connector,
  fake: { script: Map<string, FakeAnswer> },
  prefix: string,
  rows: readonly (readonly [unknown, FakeAnswer, ...unknown[]])[],
  message: (to: string) => OutboundMessage,
): Promise<DeliveryResult[]> {
  const results: DeliveryResult[] = [];
  for (const [i, [, answer]] of rows.entries()) {
    const to = `${prefix}${String(i).padStart(4, '0')}`;
    fake.script.set(to, answer);
    results.push((await connector.send([message(to)]))[0]);
  }
  return results;
}

/** What the connector made of each row, and what the rows expect, in one comparable shape. */
export async function classifications(
  connector: Connector,
  fake: { script: Map<string, FakeAnswer> },
  prefix: string,
  rows: readonly ClassificationRow[],
  message: (to: string) => OutboundMessage,
): Promise<{ seen: unknown[]; expected: unknown[] }> {
  const results = await sendEachRow(connector, fake, prefix, rows, message);
  const seen = results.map((result, i) =>
    result.ok
      ? [rows[i][0], 'ok']
      : [
          rows[i][0],
          result.error.kind,
          result.error.deadRecipient,
          result.error.providerCode,
          result.error.retryAfterMs,
        ],
  );
  return { seen, expected: rows.map(([label, , kind, dead, code, retry]) => [label, kind, dead, code, retry]) };
}
