package mcp

import (
	"fmt"
	"strconv"
)

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }

func itoa(n int) string { return strconv.Itoa(n) }
