//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// nativeArch is the audit architecture of this build; arm64 has no x32.
const (
	nativeArch = unix.AUDIT_ARCH_AARCH64
	x32Bit     = 0
)
