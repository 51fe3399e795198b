// Package tools implements the tools keel's model can call, the workspace boundary they stay inside, the permission policy that guards them, and the records that make their changes undoable.
package tools
