import type { ConfigIssue } from './config-issues.js';

/**
 * What `tools.perSession` names that the project cannot provide: a name that is no toolkit class it
 * exports (with the nearest one, or the list), or a toolkit whose constructor needs arguments.
 */
export function perSessionIssues(
  perSession: readonly string[],
  project: { path: string; toolkits: readonly string[]; skipped: readonly string[] },
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  perSession.forEach((name, index) => {
    const path = `$.tools.perSession[${index}]`;
    if (project.skipped.includes(name)) {
      issues.push({
        path,
        message: `${name}'s constructor takes arguments, so toolwright cannot make one per session; give it a constructor without parameters, or construct it in your own program`,
      });
    } else if (!project.toolkits.includes(name)) {
      const known =
        project.toolkits.length > 0
          ? `its toolkit classes are: ${project.toolkits.join(', ')}`
          : 'it exports no toolkit classes (classes with @tool() methods)';
      issues.push({ path, message: `${JSON.stringify(name)} is not a toolkit class exported by ${project.path}; ${known}` });
    }
  });
  return issues;
}
