// Package discipline holds keel's post-round discipline as pure functions: a round summary, a policy and carried state in; interventions and new state out. It imports only the standard library.
package discipline
