import type { CliContext } from './context';

/** The Temporal UI's page of a workflow (a study or an instance), where a UI is known. */
export function uiLink(ctx: CliContext, workflowId: string): string | null {
  return ctx.temporal.uiUrl ? `${ctx.temporal.uiUrl}/namespaces/${ctx.temporal.namespace}/workflows/${encodeURIComponent(workflowId)}` : null;
}
