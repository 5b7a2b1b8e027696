package dev.noneops.benchmarks.micro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Synthetic kernel views for the micro-benchmarks: a mountinfo text shaped like a busy node's
 * (pod volumes, projected secrets, container rootfs overlays) and a {@code /proc}-shaped tree of
 * processes with {@code cmdline}, {@code cgroup}, {@code maps} and an {@code exe} link.
 */
final class SyntheticHost {
  private SyntheticHost() {}

  /** {@code lines} mountinfo lines: a root, then tmpfs, bind and overlay mounts below kubelet's pod dirs. */
  static String mountInfo(int lines) {
    StringBuilder s = new StringBuilder(lines * 160);
    s.append("21 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw,discard\n");
    for (int i = 1; i < lines; i++) {
      int id = 100 + i;
      String pod = String.format("%08x-0000-4000-8000-%012d", i / 10, i / 10);
      switch (i % 3) {
        case 0 -> s.append(id).append(" 21 0:").append(50 + i).append(" / /var/lib/kubelet/pods/").append(pod)
            .append("/volumes/kubernetes.io~projected/kube-api-access-").append(i)
            .append(" rw,relatime shared:").append(i).append(" - tmpfs tmpfs rw,size=4096k\n");
        case 1 -> s.append(id).append(" 21 259:1 /srv/data/").append(i).append(" /var/lib/kubelet/pods/").append(pod)
            .append("/volumes/kubernetes.io~local-volume/data\\040").append(i)
            .append(" rw,relatime shared:1 - ext4 /dev/root rw,discard\n");
        default -> s.append(id).append(" 21 0:").append(50 + i)
            .append(" / /run/containerd/io.containerd.runtime.v2.task/k8s.io/").append(pod).append("/rootfs")
            .append(" rw,relatime - overlay overlay rw,lowerdir=/var/lib/containerd/l/").append(i)
            .append(",upperdir=/var/lib/containerd/u/").append(i).append(",workdir=/var/lib/containerd/w/").append(i).append('\n');
      }
    }
    return s.toString();
  }

  /** {@code count} process directories {@code 1..count} below {@code root}, a third of them shims. */
  static void procTree(Path root, int count) throws IOException {
    for (int pid = 1; pid <= count; pid++) {
      Path dir = Files.createDirectory(root.resolve(Integer.toString(pid)));
      boolean shim = pid % 3 == 0;
      String argv = shim
          ? "/opt/unbounded/node/current/bin/containerd-shim-runc-v2\0-namespace\0k8s.io\0-id\0" + pid
              + "\0-address\0/run/containerd/containerd.sock\0"
          : "/usr/bin/sleep\0" + pid + "\0";
      Files.write(dir.resolve("cmdline"), argv.getBytes(StandardCharsets.UTF_8));
      String cgroup = shim ? "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + pid + ".slice\n"
          : "0::/system.slice/app-" + pid + ".service\n";
      Files.writeString(dir.resolve("cgroup"), cgroup);
      Files.writeString(dir.resolve("maps"),
          "55d0c0000000-55d0c0020000 r-xp 00000000 103:01 1234 " + (shim ? "/opt/unbounded/node/current/bin/containerd-shim-runc-v2" : "/usr/bin/sleep")
              + "\n7f0000000000-7f0000020000 r-xp 00000000 103:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6\n");
      Files.createSymbolicLink(dir.resolve("exe"), Path.of(shim ? "/opt/unbounded/node/current/bin/containerd-shim-runc-v2" : "/usr/bin/sleep"));
    }
  }
}
