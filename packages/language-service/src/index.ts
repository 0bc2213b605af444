import type ts from 'typescript/lib/tsserverlibrary';
import { decorateLanguageService } from './create-plugin.js';

/**
 * The tsserver plugin factory. Enable it in tsconfig.json:
 * `"plugins": [{ "name": "@toolwright/language-service" }]` (editors must use the workspace TypeScript);
 * add `"strictJson": true` to the entry when the transformer entries have it.
 */
function init(_modules: { typescript: typeof ts }): ts.server.PluginModule {
  return {
    create(info) {
      info.project.projectService.logger.info('toolwright: language service plugin loaded');
      const config = info.config as { strictJson?: unknown } | undefined;
      return decorateLanguageService(
        info.languageService,
        (message) => info.project.projectService.logger.info(message),
        config?.strictJson === true ? { strictJson: true } : {},
      );
    },
  };
}

export = init;
