export { McpAppError, type McpAppErrorReason } from "./app-errors.js";
export {
  appResourceUri,
  appVisibility,
  visibleToApp,
  visibleToModel,
  MCP_APP_MIME_TYPE,
  MCP_APPS_EXTENSION,
  type McpAppVisibility,
} from "./tool-ui.js";
export { readAppResource, type McpAppCsp, type McpAppPermissions, type McpAppResource } from "./app-resource.js";
export { MCP_APP_RENDERER, showToolApp, type McpAppSlotInput } from "./app-slot.js";
export {
  callAppTool,
  glovePermission,
  policyPermission,
  type CallAppToolOptions,
  type McpAppPermission,
  type McpAppToolRequest,
  type PermissionCheckingGlove,
} from "./app-tool-call.js";
