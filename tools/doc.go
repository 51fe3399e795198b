// Package tools implements the tools keel's model can call, the workspace boundary they stay inside, the permission policy that guards them, and the records that make their changes undoable.
//
// Wiring (done in cmd/keel):
//
//	ws, err := tools.NewWorkspace(cwd)              // git root containing cwd
//	ts := tools.New(ws, tools.Options{               // every tool, one call
//		SecretEnvNames: []string{"KEEL_API_KEY"},   // dropped from run_command's env
//		SecretValues:   []string{apiKey},
//	})
//	pol, err := tools.NewPolicy(ws, tools.PolicyOptions{Allow: cfg.Allow, Deny: cfg.Deny, Yolo: yolo})
//
// Before each call the agent asks pol.Decide(name, args): Allow runs it,
// Deny returns Reason to the model, Ask goes to the user (or is denied
// headless); "allow for this session" is pol.Grant(decision.Grant). Each
// Result carries Reads (for the re-read guard) and Changes (for undo,
// which is Undo(changes) in the order they were made).
//
// Each tool lives in its own file with a typed params struct; schemaFor
// turns its json, description and enum tags into the JSON schema.
package tools
