// Package common holds what several ui packages draw with and none owns:
// fitting, wrapping and indenting lines, the spinner's frames, a tool
// call's key argument, a diff's colours, the numbers and amounts as keel
// shows them (Cost, Tokens, Plural), and the sanitising of text keel did
// not write (Clean and the agent types' Clean* functions). It holds no
// state and imports no other ui package but theme.
package common
