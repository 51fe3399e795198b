// Package ui is keel's Bubble Tea interface: conversation, plan panel, checkpoint cards, status bar, permission dialog and datalog browser.
package ui
