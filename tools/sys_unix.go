package tools

import "syscall"

// syscallENOTDIR is returned when a path walks through a regular file.
const syscallENOTDIR = syscall.ENOTDIR
