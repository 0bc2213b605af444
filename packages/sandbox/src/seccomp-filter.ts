// The seccomp filter every sandboxed command runs under (bubblewrap's `--seccomp FD` loads it), written out as
// classic BPF: the kernel checks each system call's number and arguments against it. Why it exists: the mounts
// decide *where* a command may write, not *what* it may make there. A twelfth pass had a command (root in the
// sandbox, owner of its files) `cp /bin/bash x; chmod 4755 x` in the workspace, and another local user ran `x` as
// root on the host; `chmod 0777 .` let any local user replace the workspace's config. So the filter refuses
// exactly what makes a file run as its owner or its group (set-user-ID, set-group-ID), or writable by other users
// (the group may be shared), however it is asked for, and the ways around argument checks:
// - `chmod`, `fchmod`, `fchmodat`, `fchmodat2` with a set-ID bit or the group's or others' write bit: EPERM;
// - `open`, `openat`, `creat`, `mkdir(at)`, `mknod(at)` asking for a set-ID bit: EPERM;
// - `umask` without the group's and others' write bits masked (a mask that lets `mkdir` make folders others may
//   write) is not
//   carried out and answers 0, as if the mask had been 0 — not EPERM: `umask` cannot fail, and callers that read
//   the mask by setting 0 and restoring it (coreutils' `mkdir -p`) took -1 for a mask of 0777 and made folders no
//   one could enter; the mask stays what it was (the sandbox starts with `umask go-w`);
// - extended attributes (`setxattr` and its kin: ACLs granting others access, file capabilities): EOPNOTSUPP,
//   which `cp -a` and `tar` take as "not kept here";
// - calls whose mode the filter cannot read (`openat2` takes it in a structure, io_uring submits opens from a
//   queue): ENOSYS, which C libraries and runtimes answer by falling back to `openat`;
// - `bpf`, `perf_event_open`, `userfaultfd` (kernel attack surface no command needs): EPERM;
// - hard links (`link`, `linkat`): EPERM, as on a file system that has none. A mount covers a name, not the file: a
//   red-team pass hard-linked `.husky/pre-commit` to `notes.txt` while it was plain workspace content, the user then
//   set `core.hooksPath` (the folder became protected, mounted read-only), and a later command wrote the hook through
//   the other name, which git ran on the host; a link to a file a deny rule later hid (`cert.pem`, written in place by
//   the user) read it. git, cargo and pnpm fall back to a rename or a copy; `ln` and `cp -l` say "Operation not
//   permitted" (the judge refuses `cp -l` first). Links made outside the sandbox are the user's and stay;
// - `fcntl(F_SETLEASE)`: EINVAL, as where leases are turned off (`/proc/sys/fs/leases-enable`). A lease on a workspace
//   file (the command owns it, a read-only protected one too) made every open of it on the host wait out the
//   kernel's lease-break time (45 s) for as long as the command lived, and told the command when the host opened it;
// - the kernel's keyrings (`add_key`, `request_key`, `keyctl`): ENOSYS, as on a kernel built without them. They are
//   not the sandbox's alone: a red-team pass wrote a key into the host's session keyring that outlived the call,
//   filled the user's key quota for the whole machine, and with `request_key`'s callout made the kernel start
//   `/sbin/request-key` on the host, as root and outside every namespace (with keyutils installed it resolves a
//   name the command chose, over the host's network);
// - POSIX message queues (`mq_open`): ENOSYS, as on a kernel built without them. Their bytes count against the
//   user for the whole machine (RLIMIT_MSGQUEUE): nine queues left the host's `mq_open` failing while the command lived;
// - `fanotify_init` and legacy AIO's `io_setup`: ENOSYS, as on a kernel built without them. fanotify groups count
//   against the user for the whole machine (128) and AIO events against the machine (`fs.aio-max-nr`): a red-team pass
//   used up both from one command, and every process of the machine then failed to make one while it lived;
// - sockets of any family but local, IP and netlink (`socket`, `socketpair`): EAFNOSUPPORT, as where the family is
//   not built in. A network namespace holds IP, not every family: a vsock (AF_VSOCK) listener in a sandbox with no
//   network was reachable from the hypervisor, and the rarer families are kernel attack surface no command needs;
// - a call through another architecture's table (32-bit `int 0x80`, x32) ends the process: its numbers differ.
// Only x86-64 and arm64 are written out; elsewhere `seccompFilter` answers undefined and the sandbox runs without.

/** seccomp_data: the call's number, the architecture, then six 64-bit arguments (their low halves at 16 + 8·i). */
const NR = 0;
const ARCH = 4;
const argLow = (index: number) => 16 + 8 * index;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;
const EPERM = 1;
const ENOSYS = 38;
const EOPNOTSUPP = 95;
const EINVAL = 22;
const EAFNOSUPPORT = 97;
/** fcntl's command that takes a lease. */
const F_SETLEASE = 1024;

/** The socket families a command may open: AF_UNIX, AF_INET, AF_INET6, AF_NETLINK (addresses, routes, `getifaddrs`). */
const SOCKET_FAMILIES = [1, 2, 10, 16];

/** Set-user-ID and set-group-ID. */
const SET_ID = 0o6000;
/** The group's and the others' write bits: the user's group may be shared (a gid 100 `users`, a gid 0 in OpenShift). */
const SHARED_WRITE = 0o0022;

interface Table {
  readonly audit: number;
  /** Calls whose `arg` (an index) is a mode that may carry no bit of `mask`. */
  readonly modes: readonly { nr: number; arg: number; mask: number }[];
  readonly umask?: number;
  readonly unsupported: readonly number[];
  readonly unimplemented: readonly number[];
  readonly forbidden: readonly number[];
  /** fcntl's number: its command (the second argument) may not take a lease. */
  readonly fcntl: number;
  /** `socket` and `socketpair`: their family (the first argument) must be one of `SOCKET_FAMILIES`. */
  readonly sockets: readonly number[];
  /** Numbers at or above this belong to another table (x32). */
  readonly foreignFrom?: number;
}

const CHMOD = SET_ID | SHARED_WRITE;

const TABLES: Record<string, Table> = {
  x64: {
    audit: 0xc000003e,
    modes: [
      { nr: 2, arg: 2, mask: SET_ID }, // open
      { nr: 85, arg: 1, mask: SET_ID }, // creat
      { nr: 83, arg: 1, mask: SET_ID }, // mkdir
      { nr: 133, arg: 1, mask: SET_ID }, // mknod
      { nr: 257, arg: 3, mask: SET_ID }, // openat
      { nr: 258, arg: 2, mask: SET_ID }, // mkdirat
      { nr: 259, arg: 2, mask: SET_ID }, // mknodat
      { nr: 90, arg: 1, mask: CHMOD }, // chmod
      { nr: 91, arg: 1, mask: CHMOD }, // fchmod
      { nr: 268, arg: 2, mask: CHMOD }, // fchmodat
      { nr: 452, arg: 2, mask: CHMOD }, // fchmodat2
    ],
    umask: 95,
    unsupported: [188, 189, 190, 463], // setxattr, lsetxattr, fsetxattr, setxattrat
    // openat2, io_uring_setup, io_uring_enter, io_uring_register; add_key, request_key, keyctl; mq_open; fanotify_init; io_setup
    unimplemented: [437, 425, 426, 427, 248, 249, 250, 240, 300, 206],
    forbidden: [321, 298, 323, 86, 265], // bpf, perf_event_open, userfaultfd, link, linkat
    fcntl: 72,
    sockets: [41, 53], // socket, socketpair
    foreignFrom: 0x40000000,
  },
  arm64: {
    audit: 0xc00000b7,
    modes: [
      { nr: 56, arg: 3, mask: SET_ID }, // openat
      { nr: 34, arg: 2, mask: SET_ID }, // mkdirat
      { nr: 33, arg: 2, mask: SET_ID }, // mknodat
      { nr: 52, arg: 1, mask: CHMOD }, // fchmod
      { nr: 53, arg: 2, mask: CHMOD }, // fchmodat
      { nr: 452, arg: 2, mask: CHMOD }, // fchmodat2
    ],
    umask: 166,
    unsupported: [5, 6, 7, 463],
    unimplemented: [437, 425, 426, 427, 217, 218, 219, 180, 262, 0],
    forbidden: [280, 241, 282, 37], // bpf, perf_event_open, userfaultfd, linkat
    fcntl: 25,
    sockets: [198, 199],
  },
};

type Instruction = { code: number; jt: number | string; jf: number | string; k: number; label?: string };

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const AND_K = 0x54;

/** The filter for `arch` (Node's `process.arch`) as bubblewrap reads it (struct sock_filter, host byte order), or undefined. */
export function seccompFilter(arch: string = process.arch): Buffer | undefined {
  const table = TABLES[arch];
  if (!table) return undefined;
  const program: Instruction[] = [];
  const at = (label: string) => label;
  const emit = (code: number, k: number, jt: number | string = 0, jf: number | string = 0, label?: string) =>
    program.push({ code, jt, jf, k, ...(label ? { label } : {}) });
  emit(LD_W_ABS, ARCH);
  emit(JEQ_K, table.audit, 0, at('kill'));
  emit(LD_W_ABS, NR);
  if (table.foreignFrom !== undefined) emit(JGE_K, table.foreignFrom, at('kill'), 0);
  table.modes.forEach((call, i) => emit(JEQ_K, call.nr, at(`mode${i}`), 0));
  if (table.umask !== undefined) emit(JEQ_K, table.umask, at('umask'), 0);
  for (const nr of table.unsupported) emit(JEQ_K, nr, at('unsupported'), 0);
  for (const nr of table.unimplemented) emit(JEQ_K, nr, at('unimplemented'), 0);
  for (const nr of table.forbidden) emit(JEQ_K, nr, at('eperm'), 0);
  emit(JEQ_K, table.fcntl, at('fcntl'), 0);
  for (const nr of table.sockets) emit(JEQ_K, nr, at('socket'), 0);
  emit(RET_K, RET_ALLOW);
  // Jumps go forward only: each check ends in its own `allow`.
  table.modes.forEach((call, i) => {
    emit(LD_W_ABS, argLow(call.arg), 0, 0, `mode${i}`);
    emit(JSET_K, call.mask, at('eperm'), 0);
    emit(RET_K, RET_ALLOW);
  });
  if (table.umask !== undefined) {
    emit(LD_W_ABS, argLow(0), 0, 0, 'umask');
    emit(AND_K, SHARED_WRITE);
    emit(JEQ_K, SHARED_WRITE, 0, at('ignored'));
    emit(RET_K, RET_ALLOW);
  }
  emit(LD_W_ABS, argLow(1), 0, 0, 'fcntl');
  emit(JEQ_K, F_SETLEASE, at('einval'), 0);
  emit(RET_K, RET_ALLOW);
  emit(LD_W_ABS, argLow(0), 0, 0, 'socket');
  for (const family of SOCKET_FAMILIES) emit(JEQ_K, family, at('allow'), 0);
  emit(RET_K, retErrno(EAFNOSUPPORT), 0, 0);
  emit(RET_K, RET_ALLOW, 0, 0, 'allow');
  emit(RET_K, retErrno(0), 0, 0, 'ignored');
  emit(RET_K, retErrno(EPERM), 0, 0, 'eperm');
  emit(RET_K, retErrno(EINVAL), 0, 0, 'einval');
  emit(RET_K, retErrno(EOPNOTSUPP), 0, 0, 'unsupported');
  emit(RET_K, retErrno(ENOSYS), 0, 0, 'unimplemented');
  emit(RET_K, RET_KILL_PROCESS, 0, 0, 'kill');
  return assemble(program);
}

/** Resolves labels to the relative jumps of classic BPF (forward only, at most 255 instructions ahead). */
function assemble(program: readonly Instruction[]): Buffer {
  const labels = new Map<string, number>();
  program.forEach((instruction, index) => instruction.label && labels.set(instruction.label, index));
  const offset = (target: number | string, from: number) => {
    if (typeof target === 'number') return target;
    const to = labels.get(target);
    if (to === undefined || to <= from || to - from - 1 > 255) throw new Error(`seccomp filter: bad jump to ${target}`);
    return to - from - 1;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    out.writeUInt16LE(instruction.code, index * 8);
    out.writeUInt8(offset(instruction.jt, index), index * 8 + 2);
    out.writeUInt8(offset(instruction.jf, index), index * 8 + 3);
    out.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return out;
}
