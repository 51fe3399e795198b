package agent

// Intervention is post-round discipline stepping in, as the UI card, the
// datalog and headless JSON show it.
type Intervention struct {
	Seq        int            // per session, in firing order
	Kind       string         // reflection, reread, repeat, halt, error_streak, stall, verify, plan_continue, monologue
	AtToolCall int            // the task's tool-call count when it fired
	Why        string         // one line with the figures that made it fire
	Message    string         // the text sent to the model ("" when nothing was sent)
	Action     string         // inject, ask or halt
	Figures    map[string]int // the trigger figures
	Reply      string         // the model's next text, attached when it comes
}
