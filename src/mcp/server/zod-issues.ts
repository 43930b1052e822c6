import type { z } from 'zod';

/** Zod issues as one sentence that names each field and what it must be. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 10)
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : 'arguments';
      if (issue.code === 'unrecognized_keys') return `unknown argument(s) ${issue.keys.join(', ')}: remove them`;
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
