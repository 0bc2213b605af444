import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ToolExecutor, type ExecutorOptions } from '@toolwright/executor';
import { ToolRegistry } from '@toolwright/registry';
import { ToolDiscovery } from './tool-discovery.js';

/**
 * Import once in the root module: every `@tool()` provider of the application is registered in the
 * exported `ToolRegistry`, and the exported `ToolExecutor` runs calls against it.
 */
@Module({})
export class ToolwrightModule {
  static forRoot(options: Omit<ExecutorOptions, 'registry'> = {}): DynamicModule {
    return {
      module: ToolwrightModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: ToolRegistry, useFactory: () => new ToolRegistry() },
        { provide: ToolExecutor, useFactory: (registry: ToolRegistry) => new ToolExecutor({ ...options, registry }), inject: [ToolRegistry] },
        ToolDiscovery,
      ],
      exports: [ToolRegistry, ToolExecutor, ToolDiscovery],
    };
  }
}
