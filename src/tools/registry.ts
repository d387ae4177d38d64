import type { AgentRole } from './tool-spec.js';
import { bashTool } from './bash-tool.js';
import { createTool } from './create-tool.js';
import { editTool } from './edit-tool.js';
import { injectorSubmitTool, solverSubmitTool } from './submit-tool.js';
import type { Tool } from './tool.js';

/** The tools of one role, in the order the model sees them (method §8): the same three plus that role's `submit`. */
export function toolsForRole(role: AgentRole): Tool[] {
  return [bashTool, editTool, createTool, role === 'injector' ? injectorSubmitTool : solverSubmitTool];
}
