package discipline

import (
	"fmt"
	"maps"
)

// KindJobPoll is the job guard's nudge.
const KindJobPoll Kind = "job_poll"

var jobPollStall = intSetting("job_poll_stall", 3, "nudge at this many polls in a row of a running background job that printed nothing new (again every as many); never halts; 0 disables")

var jobPollGuard = &Guard{
	Name: "job_poll", Kind: KindJobPoll, Rank: 6,
	Settings: []*Setting{jobPollStall},
	Call:     observeJobPoll,
}

// quietPolls counts, per job, the polls in a row with no new output.
type quietPolls struct{ byJob map[string]int }

func (q *quietPolls) clone() guardState { return &quietPolls{byJob: maps.Clone(q.byJob)} }

// observeJobPoll tells waiting on a busy job from waiting on a silent one.
// A poll that returned new output is progress (for the stall guard too);
// polls in a row that returned nothing new while the job runs earn a
// nudge every JobPollStall of them, never a halt: the job may just be
// slow. Once the job has ended, polling it again is an ordinary repeat.
func observeJobPoll(s *State, c ToolCall, call int, p *Policy) *Intervention {
	if c.Job == nil || c.Job.Started {
		return nil
	}
	q := stateOf[quietPolls](s, "job_poll")
	if c.Job.NewOutput > 0 || !c.Job.Running {
		delete(q.byJob, c.Job.ID)
		if c.Job.NewOutput > 0 {
			s.progressAt = max(s.progressAt, call)
		}
		return nil
	}
	if q.byJob == nil {
		q.byJob = map[string]int{}
	}
	q.byJob[c.Job.ID]++
	n := q.byJob[c.Job.ID]
	every := p.num(jobPollStall)
	if every <= 0 || n%every != 0 {
		return nil
	}
	return &Intervention{
		Kind:       KindJobPoll,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("Background job %s is still running and has printed nothing new in your last %s. Polling faster will not make it finish: wait longer between polls (job_output's wait_seconds), do other work meanwhile, or stop it with job_stop if it is stuck.",
			c.Job.ID, plural(n, "poll")),
		Note:    fmt.Sprintf("job %s printed nothing new in %s: wait longer between polls, do other work, or stop it.", c.Job.ID, plural(n, "poll")),
		Why:     fmt.Sprintf("job %s: %s in a row with no new output while it runs (nudge every %d)", c.Job.ID, plural(n, "poll"), every),
		Figures: map[string]int{"polls": n, "every": every},
	}
}
