import type { WorkflowStep } from './workflow-steps.js';
// Type-only: the worker runs workflows and must not load the DTOs' validation libraries.
import type { RunHistoryEntryDto } from './dto/workflow.dto.js';

export interface WorkflowRow {
  id: string;
  projectId: string;
  name: string;
  description: string | null;
  triggerEvent: string;
  steps: WorkflowStep[];
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type RunStatus = 'pending' | 'processing' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/**
 * One line of a run's history: what a step did, stored as the API shows it. `result` is sent,
 * skipped, waiting, true/false, branch n, passed, throttled, opened, joined, closed…
 */
export type HistoryEntry = RunHistoryEntryDto;

/** What a run carries between passes. */
export interface RunContext {
  /** The digest this run opened and waits to close. */
  digest?: { id: string; step: number; closesAt: string };
  /** Times this run reached each send/digest step: part of the idempotency key of its message. */
  visits?: Record<number, number>;
  /** Items of the digest closed by this run: visible to later steps. */
  digestItems?: number;
  /** The last send step's jobs (inbox.is_read looks at their in-app message). */
  lastJobIds?: string[];
  /** Runs started by trigger_workflow steps, one inside the other, above this one (0 or absent: started by a trigger). */
  depth?: number;
  /** The run whose trigger_workflow step started this one. */
  parent?: { run_id: string; workflow_id: string };
  /**
   * Runs this run may still start through trigger_workflow steps, itself and all they start
   * included (absent: a run started by a trigger, which has MAX_TRIGGERED_RUNS). Each step hands
   * half of what is left to the run it starts, so one trigger never starts more than
   * MAX_TRIGGERED_RUNS runs in all, whatever the fan-out.
   */
  triggerBudget?: number;
}

export interface RunRow {
  id: string;
  projectId: string;
  workflowId: string;
  subscriberId: string;
  triggerEvent: string;
  payload: Record<string, unknown>;
  status: RunStatus;
  currentStep: number;
  runAt: Date;
  attempts: number;
  errors: number;
  context: RunContext;
  history: HistoryEntry[];
  outcome: string | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  createdKey: string;
}

/** A run the engine holds (status processing, fenced by `attempts`). */
export interface ClaimedRun {
  id: string;
  projectId: string;
  workflowId: string;
  subscriberId: string;
  payload: Record<string, unknown>;
  /** The steps it runs: its version's (read through the engine's cache), or its own copy if it started before versions. */
  steps: WorkflowStep[];
  currentStep: number;
  attempts: number;
  errors: number;
  context: RunContext;
  history: HistoryEntry[];
}

/** A run as claimed: the version it started with, or (started before versions) its own copy of the steps. */
export type ClaimedRunRow = Omit<ClaimedRun, 'steps'> & { versionId: string | null; steps: WorkflowStep[] | null };

/** Where a run stands after a pass. */
export interface RunUpdate {
  id: string;
  attempts: number;
  status: RunStatus;
  currentStep: number;
  runAt: Date | null;
  context: RunContext;
  history: HistoryEntry[];
  outcome: string | null;
  error: string | null;
  errors: number;
}
