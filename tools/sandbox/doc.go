// Package sandbox runs a command through a small helper process that
// confines it and outlives it.
//
// The helper is keel's own binary started again with a marker argument
// (Main recognises it before anything else runs). On Linux it
//   - becomes a child subreaper, so every process the command leaves
//     behind (setsid, nohup, double forks) is re-parented to it, and kills
//     all of them when the command ends, is cancelled or times out;
//   - applies Landlock: the command may write only inside the workspace,
//     temp directories, toolchain caches and the paths the user added,
//     while reading stays unrestricted;
//   - when running as root, drops CAP_SYS_PTRACE, CAP_SYS_ADMIN and
//     CAP_PERFMON from what the command can gain, so it cannot read
//     keel's memory or environment; a read-only command keeps only the
//     capabilities that read.
//
// HideProcess marks keel itself non-dumpable, so a command cannot read
// /proc/<keel>/environ (and the API key in it). Elsewhere than Linux the
// helper only runs the command and kills its process group.
package sandbox
