import { RegistryError, renderedAs, type ToolRegistry } from '@toolwright/registry';
import { tool, type Integer } from '@toolwright/tool';
import { linesWithin, outputBudget } from '../model-text/output-budget.js';
import { renderText } from '../model-text/render-name.js';
import { CoreToolError } from '../core-tool-error.js';

/** A tool `tool_search` found: what the model needs to call it. */
export interface FoundTool {
  name: string;
  description: string;
  /** The JSON Schema of its arguments, as a provider's tool list shows it. */
  parameters: Record<string, unknown>;
}

/** What `tool_search` returns. */
export interface ToolSearchResult {
  query: string;
  /** The best matching tools, best first. */
  tools: FoundTool[];
  /** Matches left out so the list fits the call's output budget. */
  omitted?: Integer;
}

/** Room kept for the line that says what was left out. */
const FOOTER_ROOM = 200;

/** Finds tools of the registry it is given by what they do. */
export class ToolSearchTool {
  constructor(private readonly registry: ToolRegistry) {}

  /**
   * Searches the tools available to you for the ones that fit a task, best match first, and returns each one's name,
   * description and parameters (a JSON Schema). Describe the task in a few words ("convert currency", "open a pull
   * request") or give a tool's name; then call a tool it finds by its name, as any other tool.
   * @param query What the tool should do, in a few words, or a tool's name.
   * @param limit Most tools to return.
   */
  @renderedAs(renderToolSearch)
  @tool({ tier: 'read-only', group: 'meta', sideEffects: ['none'], capabilities: ['tools.search'], determinism: 'deterministic', timeout: '5s' })
  async toolSearch(/** @minLength 1 @maxLength 1000 */ query: string, /** @minimum 1 @maximum 20 */ limit: Integer = 5): Promise<ToolSearchResult> {
    const found = searchOrRefuse(this.registry, query, limit + 1)
      .filter((match) => match.name !== 'tool_search')
      .slice(0, limit)
      .map(({ declaration: d }): FoundTool => ({ name: d.name, description: d.description, parameters: { ...d.parameters } }));
    const shown = linesWithin(found.map(toolLines), outputBudget() - FOOTER_ROOM);
    return { query, tools: found.slice(0, shown), ...(shown < found.length ? { omitted: found.length - shown } : {}) };
  }
}

function searchOrRefuse(registry: ToolRegistry, query: string, limit: number) {
  try {
    return registry.search(query, { limit });
  } catch (error) {
    if (error instanceof RegistryError && error.code === 'invalid_query') throw new CoreToolError('invalid_query', error.message);
    throw error;
  }
}

/** A tool as three lines: its name, its description on one line, its parameters as JSON. */
function toolLines(found: FoundTool): string {
  return `## ${found.name}\n${renderText(found.description.replace(/\s*\n\s*/g, ' '))}\nparameters: ${JSON.stringify(found.parameters)}`;
}

/**
 * The tools found, one block each (name, description, parameters), then a line saying what was left out.
 * @example '## file_read\nReads a text file...\nparameters: {"type":"object","properties":{"path":...}}'
 */
export function renderToolSearch(search: ToolSearchResult): string {
  const lines = search.tools.map(toolLines);
  if (lines.length === 0) lines.push(`[no tools match ${JSON.stringify(search.query)}; try other words, or fewer of them]`);
  if (search.omitted)
    lines.push(`[${search.omitted} more matching tool${search.omitted === 1 ? '' : 's'} did not fit; ask for fewer (limit) or a narrower query]`);
  return lines.join('\n');
}
