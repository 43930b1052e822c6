import type { WorkflowStep } from './workflow-steps.js';

/** What a definition's references are checked against: the project's stored workflows and templates. */
export interface ReferenceFacts {
  /** Every stored workflow of the project → the workflows its trigger_workflow steps start. */
  triggers: Map<string, string[]>;
  /** The channels a template has variants for (any locale); undefined when it does not exist. */
  templateChannels: Map<string, Set<string> | undefined>;
}

/** The workflows a definition's trigger_workflow steps start. */
export function triggeredBy(steps: WorkflowStep[]): string[] {
  return steps.flatMap((s) => (s.type === 'trigger_workflow' ? [s.workflow_id] : []));
}

/** The templates a definition's send and digest steps name. */
export function templatesUsed(steps: WorkflowStep[]): string[] {
  return [
    ...new Set(
      steps.flatMap((s) => ((s.type === 'send' || s.type === 'digest') && s.template_id ? [s.template_id] : [])),
    ),
  ];
}

/**
 * Problems with what workflow `id`'s steps name, one line each, naming the step and the fix:
 * a template that does not exist (or has no variant for the step's channel while the step has no
 * inline content to fall back on, as a single send would), a workflow that does not exist, and a
 * trigger_workflow step that would start this workflow again — itself, or through the workflows
 * it starts (the stored definitions, with this one as it is being saved). A loop that appears
 * later (a workflow deleted and re-created) is stopped at run time by MAX_TRIGGER_DEPTH.
 */
export function referenceProblems(id: string, steps: WorkflowStep[], facts: ReferenceFacts): string[] {
  const problems: string[] = [];
  const graph = new Map(facts.triggers);
  graph.set(id, triggeredBy(steps));
  steps.forEach((step, i) => {
    if ((step.type === 'send' || step.type === 'digest') && step.template_id) {
      const channels = facts.templateChannels.get(step.template_id);
      if (!channels) {
        problems.push(
          `steps[${i}].template_id names template '${step.template_id}', which does not exist in this project: create it first (POST /v1/templates)`,
        );
      } else if (!channels.has(step.channel) && !step.subject && !step.body && !step.body_html) {
        problems.push(
          `steps[${i}].template_id: template '${step.template_id}' has no ${step.channel} variant and the step has no subject or body to fall back on: add the variant or inline content`,
        );
      }
    }
    if (step.type !== 'trigger_workflow') return;
    const target = step.workflow_id;
    if (target === id) {
      problems.push(`steps[${i}].workflow_id names this workflow: its runs would start one another without end`);
    } else if (!graph.has(target)) {
      problems.push(
        `steps[${i}].workflow_id names workflow '${target}', which does not exist in this project: create it first`,
      );
    } else {
      const loop = pathTo(graph, target, id);
      if (loop)
        problems.push(
          `steps[${i}].workflow_id: '${target}' starts this workflow back (${[id, ...loop].join(' → ')}): runs would start one another without end`,
        );
    }
  });
  return problems;
}

/** The workflows from `from` to `to` along trigger_workflow steps (both included), or undefined. */
function pathTo(graph: Map<string, string[]>, from: string, to: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (node: string): string[] | undefined => {
    if (node === to) return [node];
    if (seen.has(node)) return undefined;
    seen.add(node);
    for (const next of graph.get(node) ?? []) {
      const rest = walk(next);
      if (rest) return [node, ...rest];
    }
    return undefined;
  };
  return walk(from);
}
