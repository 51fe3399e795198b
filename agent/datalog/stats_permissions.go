package datalog

import (
	"sort"
	"strings"
)

// PermissionStats counts the user's answers to permission questions: how
// many calls were allowed once, allowed for the session (and under which
// grants), or denied. Allowed counts rows written before keel recorded
// which.
type PermissionStats struct {
	AllowedOnce    int         `json:"allowed_once"`
	AllowedSession int         `json:"allowed_for_session"`
	Allowed        int         `json:"allowed_unrecorded"`
	Denied         int         `json:"denied"`
	Grants         []ToolCount `json:"session_grants"` // Tool holds the grant's pattern
}

// permissionStats counts the calls the user decided.
func permissionStats(d *statsData) PermissionStats {
	var p PermissionStats
	grants := map[string]int{}
	for _, sid := range d.sessions {
		for _, c := range d.calls[sid] {
			switch {
			case !ByUser(c.DecidedBy):
			case c.Permission == "deny":
				p.Denied++
			case c.DecidedBy == DecidedByUserOnce:
				p.AllowedOnce++
			case strings.HasPrefix(c.DecidedBy, DecidedByUserSession):
				p.AllowedSession++
				grants[strings.TrimPrefix(c.DecidedBy, DecidedByUserSession)]++
			case strings.HasPrefix(c.DecidedBy, DecidedByUserAlways): // saved in config, and granted for the session
				p.AllowedSession++
				grants[strings.TrimPrefix(c.DecidedBy, DecidedByUserAlways)]++
			default:
				p.Allowed++
			}
		}
	}
	for g, n := range grants {
		p.Grants = append(p.Grants, ToolCount{Tool: g, Count: n})
	}
	sort.Slice(p.Grants, func(i, j int) bool { return p.Grants[i].Tool < p.Grants[j].Tool })
	return p
}
