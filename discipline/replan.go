package discipline

import (
	"fmt"
	"strings"
)

// Replanning strategies, alternating by attempt.
const (
	StrategyExploreFirst = "explore first"
	StrategyActFirst     = "act first"
)

// ReplanStrategy names the approach for a plan attempt: even attempts
// explore first (read and search before acting), odd attempts act first
// (the smallest change that tests the hypothesis). Alternating keeps a
// model that failed by over-reading from reading more, and the reverse.
func ReplanStrategy(attempt int) string {
	if attempt%2 == 0 {
		return StrategyExploreFirst
	}
	return StrategyActFirst
}

// ReplanMessage renders the message the next request carries after a plan
// fails: what failed and why, what was tried, and a different approach,
// with the strategy for this attempt named.
func ReplanMessage(failedStep, why string, tried []string, attempt int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Replanning, attempt %d. The step %q failed", attempt, failedStep)
	if why = strings.TrimSpace(why); why != "" {
		fmt.Fprintf(&b, ": %s", why)
	}
	b.WriteString(".\n")
	if len(tried) == 0 {
		b.WriteString("Nothing was recorded as tried.\n")
	} else {
		b.WriteString("Already tried (do not repeat):\n")
		for _, t := range tried {
			fmt.Fprintf(&b, "- %s\n", t)
		}
	}
	strategy := ReplanStrategy(attempt)
	fmt.Fprintf(&b, "Strategy for this attempt: %s. ", strategy)
	if strategy == StrategyExploreFirst {
		b.WriteString("Before changing anything, read the code involved and search for how similar cases are handled, until you can say why the step failed; then plan from that explanation.\n")
	} else {
		b.WriteString("Make the smallest change that tests your best hypothesis for why the step failed, check its result, and let that result decide the next step.\n")
	}
	b.WriteString("Take a different approach from the one that failed, and record the new plan (goal, strategy, steps) with update_plan before continuing.")
	return b.String()
}
