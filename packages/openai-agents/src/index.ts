export { toAgentTools } from './to-agent-tools.js';
export type { AgentToolsOptions } from './to-agent-tools.js';
