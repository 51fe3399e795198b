// Package keellog is `keel log`: listing, showing, analysing, exporting
// and pruning the sessions in the datalog. It prints what agent/datalog
// stores and queries; every text the model or a tool wrote goes through
// termtext on its way to the terminal.
package keellog
