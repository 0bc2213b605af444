import type { DeclarationReport } from './declaration-report.js';
import { DIALECTS } from './dialects.js';
import type { Loss } from './lowering-losses.js';
import type { ToolSetting } from './setting-losses.js';

/** What a tool setting the dialect cannot send means for the model. */
const SETTING_EFFECT: Record<ToolSetting, string> = {
  defer: 'the dialect has no deferred loading, so the tool is loaded up front',
  examples: 'the dialect has no input examples, so the model is shown none',
  callers: 'the dialect has no allowed callers, so the model calls the tool directly and code run by a code-execution tool cannot',
};

/** The report as a table of tokens, then each tool's losses per dialect. */
export function formatReport(report: DeclarationReport): string {
  const header = ['tool', ...DIALECTS];
  const rows = [
    header,
    ...report.tools.map((tool) => [tool.name, ...DIALECTS.map((d) => String(tool.tokens[d]))]),
    ['total', ...DIALECTS.map((d) => String(report.totals[d]))],
  ];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  const lines = [`Declaration tokens (${report.encoding}, each tool's entry as the dialect sends it):`, ...rows.map(line)];
  lines.splice(rows.length, 0, '-'.repeat(line(header).length));

  const lossy = report.tools.filter((tool) => Object.keys(tool.losses).length > 0);
  lines.push('');
  if (lossy.length === 0) {
    lines.push('No dialect loses anything from these declarations.');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    'What each lowering loses. The executor validates every call against the source schema after decoding',
    '(openai-strict: decodeOpenAIStrictArguments), so what is marked [re-validated] is still enforced; annotations are not.',
  );
  for (const tool of lossy) {
    lines.push(`  ${tool.name}`);
    for (const dialect of DIALECTS) {
      for (const loss of tool.losses[dialect] ?? []) lines.push(`    ${dialect.padEnd(13)}  ${loss.path}: ${describeLoss(loss)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One loss in words: `maxLength dropped (told in the description) [re-validated]`. */
export function describeLoss(loss: Loss): string {
  const told = loss.described ? ' (told in the description)' : '';
  const mark = loss.revalidated ? ' [re-validated]' : ' [annotation]';
  switch (loss.kind) {
    case 'optional-nullable':
      return 'optional → required and nullable (null is decoded as absent) [re-validated]';
    case 'dropped':
      return `${loss.keyword} dropped${told}${mark}`;
    case 'changed':
      return `${loss.keyword} changed${told}${mark}`;
    case 'reshaped':
      return `reshaped: ${loss.keyword}${told} [decoded, re-validated]`;
    case 'inlined-ref':
      return `$ref ${loss.keyword} inlined`;
    case 'recursion-in-text':
      return `recursive ${loss.keyword} described in text, its shape not checked by the provider [re-validated]`;
    case 'setting':
      return `${loss.keyword} not sent: ${SETTING_EFFECT[loss.keyword as ToolSetting] ?? 'the dialect has no field for it'}`;
  }
}
