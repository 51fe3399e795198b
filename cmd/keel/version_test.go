package main

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	cases := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.4.0"}}, "v0.4.0"},
		{"a build in a checkout", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261126091200-c6ca069abcde+dirty"}}, "v0.0.0-20261126091200-c6ca069abcde+dirty"},
		{"devel with a commit", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("c6ca069abcdef0123", "true")}, "c6ca069abcde-dirty"},
		{"a dependency of another module", &debug.BuildInfo{Main: debug.Module{Path: "example.com/x", Version: "(devel)"},
			Deps: []*debug.Module{{Path: modulePath, Version: "v0.3.1"}}}, "v0.3.1"},
		{"devel, nothing recorded", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build information", nil, "dev"},
	}
	for _, c := range cases {
		if got := buildVersion(c.info, c.info != nil); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
