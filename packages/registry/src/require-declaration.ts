import { getToolDeclaration, TOOL_OPTIONS, type ToolDeclaration } from '@toolwright/schema';
import { RegistryError } from './registry-error.js';

/** The function's declaration, or a registry error saying why it has none. */
export function requireDeclaration(fn: object, label: string): ToolDeclaration {
  const declaration = getToolDeclaration(fn);
  if (declaration) return declaration;
  if (TOOL_OPTIONS in fn) {
    throw new RegistryError(
      'missing_declaration',
      `${label} is marked as a tool but carries no declaration: compile it with the Toolwright transformer (tspc) or import the module written by \`toolwright emit --module\` first.`,
    );
  }
  throw new RegistryError('not_a_tool', `${label} is not a tool: wrap it with tool(...) or mark it with @tool.`);
}
