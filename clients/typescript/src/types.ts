// Request and response types of notifyd's operations, read from the generated schema.ts
// (`npm run clients:generate` at the repository root): never written by hand.
import type { components, operations } from './schema.js';

export type Schemas = components['schemas'];
type Content<R> = R extends { content: { 'application/json': infer C } } ? C : never;

/** The JSON body an operation takes. */
export type RequestOf<K extends keyof operations> = operations[K] extends { requestBody?: infer B } ? Content<NonNullable<B>> : never;
/** The JSON body of an operation's success (200 or 201). */
export type ResponseOf<K extends keyof operations> = operations[K]['responses'] extends infer R
  ? R extends { 200: infer A }
    ? Content<A>
    : R extends { 201: infer B }
      ? Content<B>
      : never
  : never;
/** An operation's query parameters. */
export type QueryOf<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export type SendRequest = Schemas['SendRequestDto'];
export type SendResponse = Schemas['SendResponseDto'];
export type BatchRequest = Schemas['BatchRequestDto'];
export type BatchResponse = Schemas['BatchResponseDto'];
export type Job = Schemas['JobDto'];
export type Subscriber = Schemas['SubscriberDto'];
export type InboxMessage = Schemas['InboxMessageDto'];
