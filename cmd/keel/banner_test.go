package main

import (
	"reflect"
	"testing"

	"github.com/keel-dev/keel/agent"
)

func TestStartBanner(t *testing.T) {
	cases := []struct {
		name string
		env  agent.PromptEnv
		home string
		want []string
	}{
		{"home, branch, two instruction files",
			agent.PromptEnv{Cwd: "/home/u/src/app/web", Workspace: "/home/u/src/app", GitBranch: "main",
				Instructions: []agent.Instruction{{Path: "/home/u/src/app/AGENTS.md"}, {Path: "/home/u/src/app/web/.keel/instructions.md"}}},
			"/home/u",
			[]string{"keel dev in ~/src/app/web (main)", "model openai/gpt-x · instructions from AGENTS.md, web/.keel/instructions.md"}},
		{"outside home, no branch, none found",
			agent.PromptEnv{Cwd: "/srv/app", Workspace: "/srv/app"},
			"/home/u",
			[]string{"keel dev in /srv/app", "model openai/gpt-x · no AGENTS.md or .keel/instructions.md found"}},
		{"a sibling of home is not under it",
			agent.PromptEnv{Cwd: "/home/user2/app", Workspace: "/home/user2/app"},
			"/home/u",
			[]string{"keel dev in /home/user2/app", "model openai/gpt-x · no AGENTS.md or .keel/instructions.md found"}},
		{"home itself", agent.PromptEnv{Cwd: "/home/u", Workspace: "/home/u"}, "/home/u",
			[]string{"keel dev in ~", "model openai/gpt-x · no AGENTS.md or .keel/instructions.md found"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := startBanner(c.env, "model openai/gpt-x", c.home); !reflect.DeepEqual(got, c.want) {
				t.Errorf("startBanner = %q, want %q", got, c.want)
			}
		})
	}
}
