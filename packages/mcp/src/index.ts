export { McpToolServer } from './tool-server.js';
export type { McpToolServerOptions } from './tool-server.js';
export { serveStdio, serveHttp } from './transports.js';
export type { HttpServeOptions } from './transports.js';
export { importMcpTools } from './import-tools.js';
export type { ImportOptions } from './import-tools.js';
