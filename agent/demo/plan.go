package demo

// The plan the story keeps: four steps, worked in order.
const (
	planGoal     = "Make the greet project's failing test pass"
	planStrategy = "Read the code and its test, reproduce the failure, make the smallest fix, verify with go test"
)

var stepTitles = [4]string{
	"Read the greet package and its test",
	"Run the tests to see the failure",
	"Fix the bug in greet.List",
	"Verify: go test ./... passes",
}

// planStep is one step of update_plan's arguments.
type planStep struct {
	Title  string `json:"title"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// planArgs are update_plan's arguments.
type planArgs struct {
	Goal     string     `json:"goal"`
	Strategy string     `json:"strategy"`
	Steps    []planStep `json:"steps"`
}

// planCall records the plan with the steps before active done (as far as
// the story got) and step active in progress.
func planCall(p progress, active int) call {
	done := p.outcomes()
	steps := make([]planStep, len(stepTitles))
	for i, title := range stepTitles {
		switch {
		case i < active:
			steps[i] = done[i]
		case i == active:
			steps[i] = planStep{Status: "active"}
		default:
			steps[i] = planStep{Status: "pending"}
		}
		steps[i].Title = title
	}
	return call{"update_plan", planArgs{Goal: planGoal, Strategy: planStrategy, Steps: steps}}
}

// closingPlanCall records every step as completed or skipped, with why.
func closingPlanCall(p progress) call {
	steps := p.outcomes()
	for i := range steps {
		steps[i].Title = stepTitles[i]
	}
	return call{"update_plan", planArgs{Goal: planGoal, Strategy: planStrategy, Steps: steps[:]}}
}

// outcomes is how each step ended, from what happened.
func (p progress) outcomes() [4]planStep {
	var s [4]planStep
	s[0] = planStep{Status: "completed", Note: "List joins names[:len(names)-2] and drops a name"}
	switch {
	case p.noGo:
		s[1] = planStep{Status: "skipped", Note: "the go command is not installed"}
	case p.testDenied:
		s[1] = planStep{Status: "skipped", Note: "you declined the test run"}
	case p.testsOK:
		s[1] = planStep{Status: "completed", Note: "the tests already pass"}
	default:
		s[1] = planStep{Status: "completed", Note: "TestHello fails for two and three names"}
	}
	switch {
	case p.edited:
		s[2] = planStep{Status: "completed", Note: "List now joins names[:len(names)-1]"}
	case p.denied:
		s[2] = planStep{Status: "skipped", Note: "you declined the edit"}
	case p.testsOK:
		s[2] = planStep{Status: "skipped", Note: "nothing to fix"}
	default:
		s[2] = planStep{Status: "skipped", Note: "the edit did not apply"}
	}
	switch {
	case p.verifyOK:
		s[3] = planStep{Status: "completed", Note: "go test ./... passes"}
	case p.verifyDenied:
		s[3] = planStep{Status: "skipped", Note: "you declined the test run"}
	case p.verified:
		s[3] = planStep{Status: "skipped", Note: "go test ./... still fails"}
	case p.noGo:
		s[3] = planStep{Status: "skipped", Note: "the go command is not installed"}
	default:
		s[3] = planStep{Status: "skipped", Note: "nothing changed to verify"}
	}
	return s
}
