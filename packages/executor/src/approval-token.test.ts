import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '@toolwright/registry';
import { ApprovalTokens } from './approval-token.js';
import { ToolExecutor } from './tool-executor.js';
import { MemoryAuditSink } from './memory-audit-sink.js';
import { canonicalJson, sha256Hex } from './output/normalize-output.js';
import { declaration, defineTool } from './test-support/declare-tool.js';
import { failed } from './test-support/call-results.js';

const call = { tool: 'shell_exec', callId: 'call_1', argsHash: sha256Hex(canonicalJson({ command: 'make' })) };

describe('ApprovalTokens', () => {
  it('verifies a token for exactly the call it was issued for, once', () => {
    const tokens = new ApprovalTokens({ secret: 'a-test-secret-of-32-bytes-length' });
    const token = tokens.issue(call);
    expect(tokens.verify(token, call)).toEqual({ ok: true });
    expect(tokens.verify(token, call)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('refuses a token for other arguments, another call id or another tool', () => {
    const tokens = new ApprovalTokens();
    const token = tokens.issue(call);
    expect(tokens.verify(token, { ...call, argsHash: sha256Hex('{"command":"rm -rf /"}') }).ok).toBe(false);
    expect(tokens.verify(token, { ...call, callId: 'call_2' }).ok).toBe(false);
    expect(tokens.verify(token, { ...call, tool: 'file_delete' }).ok).toBe(false);
  });

  it('refuses forged, malformed and expired tokens', () => {
    let now = 1_000_000;
    const tokens = new ApprovalTokens({ ttlMs: 1000, now: () => now });
    const other = new ApprovalTokens();
    expect(tokens.verify(other.issue(call), call)).toEqual({ ok: false, reason: 'bad_signature' });
    for (const junk of ['', 'tw1', 'tw1.x.y.z', 'tw1.1.aaaaaaaaaaaaaaaa.', 42 as never])
      expect(tokens.verify(junk, call)).toMatchObject({ ok: false, reason: 'malformed' });
    const token = tokens.issue(call);
    const [v, expiry, nonce, mac] = token.split('.');
    expect(tokens.verify([v, Number(expiry) + 100000, nonce, mac].join('.'), call)).toEqual({ ok: false, reason: 'bad_signature' });
    now += 2000;
    expect(tokens.verify(token, call)).toEqual({ ok: false, reason: 'expired' });
  });

  it('pre-approves a privileged call in the executor, and only that call', async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool(async (command: string) => `ran ${command}`, declaration('shell_exec', { command: { type: 'string' } }, { metadata: { tier: 'privileged' } })),
    );
    const executor = new ToolExecutor({ registry, audit: new MemoryAuditSink() });
    const tokens = new ApprovalTokens();
    const token = tokens.issue(call);
    const context = { preApproved: tokens.preApproved(() => token) };
    const approved = await executor.executeToolCall({ id: 'call_1', name: 'shell_exec', arguments: '{"command":"make"}' }, context);
    expect(approved.status).toBe('completed');
    const replayed = await executor.executeToolCall({ id: 'call_1', name: 'shell_exec', arguments: '{"command":"make"}' }, context);
    expect(failed(replayed).error.code).toBe('approval_required');
    const swapped = await executor.executeToolCall(
      { id: 'call_1', name: 'shell_exec', arguments: '{"command":"rm -rf /"}' },
      { preApproved: tokens.preApproved(() => tokens.issue(call)) },
    );
    expect(failed(swapped).error.code).toBe('approval_required');
  });
});
