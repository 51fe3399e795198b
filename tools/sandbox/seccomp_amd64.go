//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the audit architecture of this build; x32Bit marks the
// x32 ABI's syscall numbers, which the filter refuses.
const (
	nativeArch = unix.AUDIT_ARCH_X86_64
	x32Bit     = 0x40000000
)
