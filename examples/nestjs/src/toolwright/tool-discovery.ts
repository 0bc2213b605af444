import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { fromFunction, ToolRegistry } from '@toolwright/registry';
import { isMarkedTool, TOOL_METADATA_KEY, type ToolDeclaration } from '@toolwright/tool';

/** A tool found on a provider: which class and method it came from, and the name the model calls. */
export interface DiscoveredTool {
  provider: string;
  method: string;
  tool: string;
}

/**
 * Finds every provider with `@tool()` methods when the module starts and registers those methods,
 * bound to the provider instance Nest created (so they use its injected dependencies).
 * The declarations are read the way Nest reads its own handlers: `Reflect.getMetadata` on the prototype.
 */
@Injectable()
export class ToolDiscovery implements OnModuleInit {
  readonly discovered: DiscoveredTool[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue; // value and factory providers without a class
      const prototype = Object.getPrototypeOf(instance) as object;
      const methods = this.scanner.getAllMethodNames(prototype);
      const declared = methods.filter((name) => Reflect.getMetadata(TOOL_METADATA_KEY, prototype, name) !== undefined);
      const provider = instance.constructor.name;
      for (const name of methods) {
        const method = (instance as Record<string, unknown>)[name];
        if (isMarkedTool(method) && !declared.includes(name)) {
          throw new Error(
            `${provider}.${name} is marked @tool() but exposes no '${TOOL_METADATA_KEY}' metadata: compile it with the Toolwright transformer (tspc) and import 'reflect-metadata' before the module that declares it.`,
          );
        }
      }
      if (declared.length > 0 && !wrapper.isDependencyTreeStatic()) {
        throw new Error(
          `${provider} has @tool() methods but is request- or transient-scoped; tools are registered once at start, so make it a singleton provider.`,
        );
      }
      for (const name of declared) {
        const declaration = Reflect.getMetadata(TOOL_METADATA_KEY, prototype, name) as ToolDeclaration;
        const method = (instance as Record<string, (...args: unknown[]) => unknown>)[name]!;
        this.registry.add(fromFunction(declaration, method, instance));
        this.discovered.push({ provider, method: name, tool: declaration.name });
      }
    }
  }
}
