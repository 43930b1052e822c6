import type { z } from 'zod';
import type { ProjectRow } from '../projects/project.types.js';
import type { TextTable } from './server/text-table.js';
import type { Actor } from '../domain/actor.js';

/** Who is calling: the key decides which tools it sees and which project it acts on. */
export type McpRole = 'admin' | 'readonly' | 'project';

export interface McpCaller {
  role: McpRole;
  /** The key's project when role is `project`; null for operator keys. */
  projectId: string | null;
  /** A project key's hint (`sk_shop_…1f2e`), recorded on the jobs it queues. */
  keyHint?: string;
  /** `http` (POST /mcp) or `stdio` (`notifyd mcp`), for the audit log. */
  transport: 'http' | 'stdio';
  ip?: string;
}

/** MCP tool annotations. They are hints to the client, so they must be honest. */
export interface McpAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * notifyd's presets (reference §3.2), plus sends-message for anything that reaches a person.
 * Each states how it differs from a plain write (not destructive, not idempotent, closed world).
 */
const WRITE: McpAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const READ_ONLY: McpAnnotations = { ...WRITE, readOnlyHint: true, idempotentHint: true };
export const IDEMPOTENT_WRITE: McpAnnotations = { ...WRITE, idempotentHint: true };
export const DESTRUCTIVE_WRITE: McpAnnotations = { ...WRITE, destructiveHint: true, idempotentHint: true };
/** Makes a new object each call (a second call makes another, or is refused as a duplicate). */
export const CREATES: McpAnnotations = { ...WRITE };
/**
 * Issues a new credential each call (a project key, a webhook secret): not idempotent, and
 * destructive because a second call ends the credential the first one kept valid.
 */
export const ROTATES_CREDENTIAL: McpAnnotations = { ...WRITE, destructiveHint: true };
export const SENDS_MESSAGE: McpAnnotations = { ...WRITE, openWorldHint: true };

/** What a tool's handler returns: the structured result and the sentence an agent reads. */
export interface McpToolOutcome<T> {
  structured: T;
  /** The sentence an agent reads first (a summary, or the whole answer when it is short). */
  text: string;
  /**
   * The rows worth reading, as a compact table appended to the text content (bounded; the
   * structured content keeps every field): many clients show an agent only the text.
   */
  table?: TextTable;
  /** A result that reports a failure the caller must act on (e.g. the provider refused). */
  isError?: boolean;
}

/** What a handler knows about the call besides its arguments. */
export interface McpToolContext {
  caller: McpCaller;
  /** The service Actor for audit lines written by the services the tool calls. */
  actor: Actor;
  /** Recorded on the jobs the call queues (jobs.created_by): the project key's hint, or `mcp`. */
  createdBy: string;
  /**
   * The project the call acts on. A project key always acts on its own project (naming another
   * one is an error); an operator names it, and `required` makes naming it mandatory.
   */
  project(requested: string | undefined, required: true): string;
  project(requested: string | undefined, required?: false): string | null;
  /**
   * The project a project-scoped tool acts on, loaded as its REST route would: `project(…, true)`,
   * which must exist (404 naming it), so that a write never lands on a project id that is not there.
   */
  scopedProject(requested: string | undefined): Promise<ProjectRow>;
}

/**
 * An operator action exposed to agents, served by POST /mcp and `notifyd mcp` alike.
 * `audience: 'project'` tools also take a project key and then act only on its project;
 * `operator` tools need the admin or read-only key.
 */
export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What it does, when to use it and what to do next: an agent acts on this text. */
  description: string;
  annotations: McpAnnotations;
  audience: 'operator' | 'project';
  /**
   * A read-only tool whose REST route takes the admin key only (the audit log: every caller's
   * IP and what they did): the read-only key sees it marked as needing the admin key, as it
   * sees the mutating tools, and is refused when it calls it.
   */
  adminOnly?: true;
  input: I;
  output: O;
  run(args: z.output<I>, context: McpToolContext): Promise<McpToolOutcome<z.input<O>>>;
}

/** Keeps a tool's handler typed by its own schemas while the registry holds them all. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: McpTool<I, O>): McpTool {
  return tool as unknown as McpTool;
}

/** A failure the agent can fix, reported as a tool result with isError (never a protocol error). */
export class McpToolError extends Error {}
