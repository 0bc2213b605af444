import { SessionApprovals, type ApprovalAnswer, type ApprovalMemory, type ApprovalRequest, type PathResolver } from '@toolwright/executor';

/**
 * `always` answers remembered per client, never across clients: one server serves many (stdio connections, HTTP
 * sessions), and one client's "always" is no approval for another's calls. A call whose client cannot be told apart
 * from others (stateless HTTP, 2026-07-28 requests) has nothing remembered for it: its `always` counts as `once`.
 */
export class ClientApprovals implements ApprovalMemory {
  private readonly byClient = new Map<string, SessionApprovals>();

  /** `clientOf`: the client a call in progress comes from (its session, its connection), or none. */
  constructor(private readonly clientOf: (callId: string) => string | undefined) {}

  lookup(request: ApprovalRequest, resolvePath?: PathResolver): boolean {
    const client = this.clientOf(request.callId);
    return client !== undefined && (this.byClient.get(client)?.lookup(request, resolvePath) ?? false);
  }

  remember(request: ApprovalRequest, answer: Extract<ApprovalAnswer, { kind: 'always' }>): void {
    const client = this.clientOf(request.callId);
    if (client === undefined) return;
    let approvals = this.byClient.get(client);
    if (!approvals) this.byClient.set(client, (approvals = new SessionApprovals()));
    approvals.remember(request, answer);
  }

  /** Drops what a client that is gone (its session ended, its connection closed) was allowed. */
  forget(client: string): void {
    this.byClient.delete(client);
  }
}
