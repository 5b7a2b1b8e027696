package dev.noneops.benchmarks.micro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Synthetic kernel views for the micro-benchmarks: a mountinfo text shaped like a busy node's
 * (pod volumes, projected secrets, container rootfs overlays) and a {@code /proc}-shaped tree of
 * processes with {@code cmdline}, {@code cgroup}, {@code maps} and an {@code exe} link, sized like
 * the kernel's: a dynamically linked C program maps ~30 regions (~3.5 KB of {@code maps}), a
 * statically linked Go shim ~20, a kernel thread none and has no {@code exe}.
 */
final class SyntheticHost {
  static final String SHIM = "/opt/unbounded/node/current/bin/containerd-shim-runc-v2";
  private static final String SLEEP = "/usr/bin/sleep";
  private static final String LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6";
  private static final String LD = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
  private static final String[] LOCALE = {
    "LC_CTYPE",
    "LC_NUMERIC",
    "LC_TIME",
    "LC_COLLATE",
    "LC_MONETARY",
    "LC_MESSAGES/SYS_LC_MESSAGES",
    "LC_PAPER",
    "LC_NAME",
    "LC_ADDRESS",
    "LC_TELEPHONE",
    "LC_MEASUREMENT",
    "LC_IDENTIFICATION"
  };

  private SyntheticHost() {}

  /** {@code lines} mountinfo lines: a root, then tmpfs, bind and overlay mounts below kubelet's pod dirs. */
  static String mountInfo(int lines) {
    StringBuilder s = new StringBuilder(lines * 160);
    s.append("21 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw,discard\n");
    for (int i = 1; i < lines; i++) {
      int id = 100 + i;
      String pod = String.format("%08x-0000-4000-8000-%012d", i / 10, i / 10);
      switch (i % 3) {
        case 0 ->
          s.append(id)
              .append(" 21 0:")
              .append(50 + i)
              .append(" / /var/lib/kubelet/pods/")
              .append(pod)
              .append("/volumes/kubernetes.io~projected/kube-api-access-")
              .append(i)
              .append(" rw,relatime shared:")
              .append(i)
              .append(" - tmpfs tmpfs rw,size=4096k\n");
        case 1 ->
          s.append(id)
              .append(" 21 259:1 /srv/data/")
              .append(i)
              .append(" /var/lib/kubelet/pods/")
              .append(pod)
              .append("/volumes/kubernetes.io~local-volume/data\\040")
              .append(i)
              .append(" rw,relatime shared:1 - ext4 /dev/root rw,discard\n");
        default ->
          s.append(id)
              .append(" 21 0:")
              .append(50 + i)
              .append(" / /run/containerd/io.containerd.runtime.v2.task/k8s.io/")
              .append(pod)
              .append("/rootfs")
              .append(" rw,relatime - overlay overlay rw,lowerdir=/var/lib/containerd/l/")
              .append(i)
              .append(",upperdir=/var/lib/containerd/u/")
              .append(i)
              .append(",workdir=/var/lib/containerd/w/")
              .append(i)
              .append('\n');
      }
    }
    return s.toString();
  }

  /**
   * {@code count} process directories {@code 1..count} below {@code root}: every 25th a kernel
   * thread (empty {@code cmdline} and {@code maps}, no {@code exe}), a third of the rest container
   * shims in pod cgroups, the others {@code sleep}s in service cgroups.
   */
  static void procTree(Path root, int count) throws IOException {
    for (int pid = 1; pid <= count; pid++) {
      Path dir = Files.createDirectory(root.resolve(Integer.toString(pid)));
      if (pid % 25 == 2) {
        Files.write(dir.resolve("cmdline"), new byte[0]);
        Files.writeString(dir.resolve("cgroup"), "0::/\n");
        Files.writeString(dir.resolve("maps"), "");
        continue;
      }
      boolean shim = pid % 3 == 0;
      String argv = shim
          ? SHIM + "\0-namespace\0k8s.io\0-id\0" + pid
              + "\0-address\0/run/containerd/containerd.sock\0"
          : SLEEP + "\0" + pid + "\0";
      Files.write(dir.resolve("cmdline"), argv.getBytes(StandardCharsets.UTF_8));
      String cgroup = shim
          ? "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + pid
              + ".slice\n"
          : "0::/system.slice/app-" + pid + ".service\n";
      Files.writeString(dir.resolve("cgroup"), cgroup);
      Files.writeString(dir.resolve("maps"), shim ? goStaticMaps(pid) : dynamicCMaps(pid));
      Files.createSymbolicLink(dir.resolve("exe"), Path.of(shim ? SHIM : SLEEP));
    }
  }

  /** The {@code maps} of a statically linked Go program: its three segments, heap arenas, the kernel's pages. */
  private static String goStaticMaps(int pid) {
    Maps m = new Maps(0x400000L + ((long) pid << 24));
    m.file("r-xp", 0x61c000, SHIM)
        .file("r--p", 0x63e000, SHIM)
        .file("rw-p", 0x4a000, SHIM)
        .anon(0x3d000, "");
    for (int i = 0; i < 10; i++) {
      m.anon(0x400000, "");
    }
    return m.anon(0x4000, "[vvar]")
        .anon(0x2000, "[vdso]")
        .anon(0x21000, "[stack]")
        .anon(0x1000, "[vsyscall]")
        .text();
  }

  /** The {@code maps} of a dynamically linked C program: its segments, libc, the loader, locale files. */
  private static String dynamicCMaps(int pid) {
    Maps m = new Maps(0x5645c10eb000L + ((long) pid << 28));
    for (String perms : new String[] {"r--p", "r-xp", "r--p", "r--p", "rw-p"}) {
      m.file(perms, 0x2000, SLEEP);
    }
    m.anon(0x21000, "[heap]");
    for (String locale : LOCALE) {
      m.file("r--p", 0x1000, "/usr/lib/locale/C.utf8/" + locale);
    }
    for (String perms : new String[] {"r--p", "r-xp", "r--p", "r--p", "rw-p"}) {
      m.file(perms, 0x26000, LIBC);
    }
    m.anon(0xd000, "");
    for (String perms : new String[] {"r--p", "r-xp", "r--p", "r--p", "rw-p"}) {
      m.file(perms, 0x2000, LD);
    }
    return m.anon(0x4000, "[vvar]")
        .anon(0x2000, "[vdso]")
        .anon(0x21000, "[stack]")
        .anon(0x1000, "[vsyscall]")
        .text();
  }

  /** Builds {@code maps} lines with consecutive addresses, columns padded as the kernel pads them. */
  private static final class Maps {
    private final StringBuilder text = new StringBuilder(4096);
    private long address;

    Maps(long start) {
      this.address = start;
    }

    Maps file(String perms, long size, String path) {
      return line(perms, size, "fe:00 " + (260_000 + Math.abs(path.hashCode() % 100_000)), path);
    }

    Maps anon(long size, String name) {
      return line(name.isEmpty() ? "rw-p" : "r--p", size, "00:00 0", name);
    }

    private Maps line(String perms, long size, String deviceAndInode, String name) {
      int before = text.length();
      text.append(Long.toHexString(address))
          .append('-')
          .append(Long.toHexString(address + size))
          .append(' ')
          .append(perms)
          .append(" 00000000 ")
          .append(deviceAndInode);
      if (!name.isEmpty()) {
        while (text.length() - before < 73) {
          text.append(' ');
        }
        text.append(name);
      } else {
        text.append(' ');
      }
      text.append('\n');
      address += size;
      return this;
    }

    String text() {
      return text.toString();
    }
  }
}
