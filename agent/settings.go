package agent

import (
	"sync"

	"github.com/keel-dev/keel/discipline"
)

// settings are the few things that may change while a session lives (the
// TUI's /model and /cadence), behind their own lock. Everything else in
// Options is fixed when the session is made.
type settings struct {
	mu         sync.Mutex
	provider   Provider
	model      string
	discipline discipline.Policy
}

func newSettings(o Options) *settings {
	return &settings{provider: o.Provider, model: o.Model, discipline: o.Discipline}
}

// current returns the provider, model and discipline policy in force.
func (st *settings) current() (Provider, string, discipline.Policy) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.provider, st.model, st.discipline
}

func (st *settings) policy() discipline.Policy {
	_, _, p := st.current()
	return p
}

func (st *settings) setProvider(p Provider, model string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.provider, st.model = p, model
}

func (st *settings) setCadence(n int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.discipline.ReflectionCadence = n
}
