package dev.noneops.testkit.sandbox;

/**
 * The two shell scripts that start a sandbox.
 *
 * <p>{@link #LAUNCHER} runs on the host. It moves a subshell into the sandbox's own cgroup, which
 * then execs {@code setpriv --pdeathsig KILL unshare --kill-child ...}: when the launcher dies,
 * unshare gets SIGKILL, and unshare's death SIGKILLs the namespace's PID 1, which takes every
 * process of the PID namespace with it. The launcher prints unshare's pid and then waits for end
 * of input: the JVM holds the other end of that pipe, so a JVM that dies, even by SIGKILL,
 * stops its sandboxes.
 *
 * <p>{@link #BOOT} runs as PID 1 of the new PID, mount, UTS, IPC and cgroup namespaces and follows
 * docs/guides/tests.md with two changes found necessary on Debian 12: a private {@code /dev} (a
 * tmpfs with the basic device nodes and its own devpts) instead of a recursive bind of the host's,
 * which systemd writes into, and read-only {@code /proc/sys} and {@code /sys}, so no unit can change
 * kernel settings the host shares. A sandbox with its own network namespace has {@code
 * /proc/sys/net} writable: those settings are its namespace's (CNI's bridge plugin turns on
 * forwarding there).
 *
 * <p>The overlay's upper and work directories are on a tmpfs of the sandbox's own, or in a {@link
 * SandboxDisk}'s directory on the host. The links of the units the host enabled are removed from
 * the overlay at the first boot on a disk only (the disk's {@code host-units-disabled} marker
 * records it; the removals are whiteouts on the disk), so that the links a sandbox wrote survive
 * to the next boot on that disk. A disk's separate volumes ({@link
 * SandboxDisk#withSeparateVolume}) are bind-mounted from its directory at every boot. Every boot writes the masks again and a journald drop-in: a
 * volatile journal (the sandbox shares the host kernel's boot id) without rate limits, so that no
 * message of a busy boot is dropped.
 */
final class BootScript {
  private BootScript() {}

  /**
   * Arguments: cgroup directory, {@code own} or {@code host} (the network namespace), then the
   * unshare'd command (/bin/sh, BOOT, its arguments).
   */
  static final String LAUNCHER = """
      #!/bin/sh
      cgroup="$1"; net="$2"; shift 2
      flags="--mount --uts --ipc --cgroup"
      if [ "$net" = own ]; then flags="$flags --net"; fi
      sh -c 'echo $$ > "$1/cgroup.procs" && flags="$2" && shift 2 && exec setpriv --pdeathsig KILL -- unshare --pid --kill-child=SIGKILL $flags "$@"' \\
        launcher "$cgroup" "$flags" "$@" </dev/null 1>&2 &
      echo "$!"
      while read -r _; do :; done
      """;

  /**
   * Arguments: an empty mount point, sandbox name, the disk's directory (empty for a tmpfs), {@code
   * own} or {@code host} (the network namespace: its loopback is brought up when it is its own),
   * units to mask.
   */
  static final String BOOT = """
      #!/bin/sh
      set -eu
      mnt="$1"; name="$2"; disk="$3"; net="$4"; shift 4
      mount --make-rprivate /
      if [ "$net" = own ]; then ip link set lo up; fi
      if [ -z "$disk" ]; then
        mount -t tmpfs -o mode=0755 "noneops-$name" "$mnt"
        mkdir "$mnt/upper" "$mnt/work" "$mnt/root"
        disk="$mnt"
        r="$mnt/root"
      else
        r="$mnt"
      fi
      mount -t overlay overlay -o "lowerdir=/,upperdir=$disk/upper,workdir=$disk/work" "$r"
      mount -t proc -o nosuid,nodev,noexec proc "$r/proc"
      mount --bind "$r/proc/sys" "$r/proc/sys"
      mount -o remount,bind,ro "$r/proc/sys"
      if [ "$net" = own ]; then
        mount --bind "$r/proc/sys/net" "$r/proc/sys/net"
        mount -o remount,bind,rw "$r/proc/sys/net"
      fi
      mount -t tmpfs -o mode=0755,nosuid dev "$r/dev"
      mknod -m 0666 "$r/dev/null" c 1 3
      mknod -m 0666 "$r/dev/zero" c 1 5
      mknod -m 0666 "$r/dev/full" c 1 7
      mknod -m 0666 "$r/dev/random" c 1 8
      mknod -m 0666 "$r/dev/urandom" c 1 9
      mknod -m 0666 "$r/dev/tty" c 5 0
      mkdir "$r/dev/pts" "$r/dev/shm"
      mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$r/dev/pts"
      ln -s pts/ptmx "$r/dev/ptmx"
      mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm"
      ln -s /proc/self/fd "$r/dev/fd"
      ln -s /proc/self/fd/0 "$r/dev/stdin"
      ln -s /proc/self/fd/1 "$r/dev/stdout"
      ln -s /proc/self/fd/2 "$r/dev/stderr"
      touch "$r/dev/console"
      mount --bind "$r/dev/null" "$r/dev/console"
      mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$r/sys"
      mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$r/sys/fs/cgroup"
      mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$r/run"
      mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$r/tmp"
      if [ -f "$disk/separate-volumes" ]; then
        while read -r v; do
          mkdir -p "$r$v"
          mount --bind "$disk/volumes$v" "$r$v"
        done < "$disk/separate-volumes"
      fi
      if [ ! -e "$disk/host-units-disabled" ]; then
        rm -f "$r"/etc/systemd/system/*.wants/* "$r"/etc/systemd/system/*.requires/*
        touch "$disk/host-units-disabled"
      fi
      for unit in "$@"; do ln -sfn /dev/null "$r/etc/systemd/system/$unit"; done
      mkdir -p "$r/etc/systemd/journald.conf.d"
      printf '%s\\n' '[Journal]' 'Storage=volatile' 'RateLimitIntervalSec=0' 'RuntimeMaxUse=64M' \\
        > "$r/etc/systemd/journald.conf.d/noneops-sandbox.conf"
      mkdir -p "$r/.noneops-old-root"
      cd "$r"
      pivot_root . .noneops-old-root
      umount -l /.noneops-old-root
      rmdir /.noneops-old-root
      export container="noneops-$name"
      exec /lib/systemd/systemd
      """;
}
