import type { HostedTool } from '../../core/contract/hosted-tool';
import { UnsupportedHostedToolError } from '../../core/contract/unsupported';
import { providerFields } from '../shared/hosted';
import { PROVIDER } from './options';
import type { WireHostedTool } from './wire';

/** A hosted tool on the wire, with the `include` entries that bring its results back. */
export interface EncodedHostedTool {
  tool: WireHostedTool;
  include: string[];
}

/**
 * A hosted tool as a Responses API tool, `providerOptions['openai-responses']` merged last:
 * - web search: `web_search` with `search_context_size`, an approximate `user_location` and
 *   `filters.allowed_domains`; its sources are included (`web_search_call.action.sources`).
 *   `blockedDomains` has no equivalent (an `UnsupportedHostedToolError`); `maxUses` is not sent.
 * - file search: `file_search` with `vector_store_ids` and `max_num_results`; results included.
 * - code interpreter: `code_interpreter` in the given container, or a new `auto` container
 *   (with `file_ids`); outputs included.
 */
export function encodeHostedTool(tool: HostedTool): EncodedHostedTool {
  const extra = providerFields(tool, PROVIDER);
  switch (tool.type) {
    case 'web_search': {
      if (tool.blockedDomains !== undefined)
        throw new UnsupportedHostedToolError(
          PROVIDER,
          tool,
          'web_search takes an allow-list only; use allowedDomains instead of blockedDomains',
        );
      const wire: WireHostedTool = { type: 'web_search' };
      if (tool.contextSize !== undefined) wire.search_context_size = tool.contextSize;
      if (tool.userLocation !== undefined)
        wire.user_location = { type: 'approximate', ...tool.userLocation };
      if (tool.allowedDomains !== undefined)
        wire.filters = { allowed_domains: [...tool.allowedDomains] };
      return { tool: { ...wire, ...extra }, include: ['web_search_call.action.sources'] };
    }
    case 'file_search': {
      const wire: WireHostedTool = {
        type: 'file_search',
        vector_store_ids: [...tool.vectorStoreIds],
      };
      if (tool.maxResults !== undefined) wire.max_num_results = tool.maxResults;
      return { tool: { ...wire, ...extra }, include: ['file_search_call.results'] };
    }
    case 'code_interpreter': {
      const container = tool.container;
      const wire: WireHostedTool = {
        type: 'code_interpreter',
        container:
          typeof container === 'string'
            ? container
            : container?.fileIds === undefined
              ? { type: 'auto' }
              : { type: 'auto', file_ids: [...container.fileIds] },
      };
      return { tool: { ...wire, ...extra }, include: ['code_interpreter_call.outputs'] };
    }
  }
}
