package dev.noneops.acceptance.system.node;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every entry below the shared host paths a node writes, read through the file port: type, mode,
 * and the SHA-256 of a file's bytes or a link's target. Two snapshots are equal exactly when the
 * shared files are byte-identical.
 */
public final class SharedFilesSnapshot {
  /**
   * The shared paths the stack owns (docs/concepts/host-layout.md), not the layout and not the
   * applied config.
   */
  static final List<String> ROOTS = List.of(
      "/etc/systemd/system/localdns.service",
      "/etc/systemd/system/containerd.service",
      "/etc/systemd/system/kubelet.service",
      "/etc/systemd/system/kubelet.service.d",
      "/etc/containerd",
      "/etc/kubernetes",
      "/etc/default/kubelet",
      "/var/lib/kubelet",
      "/opt/cni/bin",
      "/etc/unbounded/localdns",
      "/etc/sysctl.d/99-kubernetes.conf");

  private SharedFilesSnapshot() {}

  public static Map<String, String> take(HostFiles files) throws IOException {
    Map<String, String> entries = new TreeMap<>();
    for (String root : ROOTS) {
      walk(files, Path.of(root), entries);
    }
    return entries;
  }

  private static void walk(HostFiles files, Path path, Map<String, String> entries)
      throws IOException {
    Optional<FileMeta> meta = files.lstat(path);
    if (meta.isEmpty()) {
      entries.put(path.toString(), "absent");
      return;
    }
    FileMeta m = meta.get();
    String mode = Integer.toOctalString(m.mode());
    if (m.isSymlink()) {
      entries.put(path.toString(), "symlink -> " + files.readLink(path));
    } else if (m.isDirectory()) {
      entries.put(path.toString(), "directory " + mode);
      for (String name : files.list(path)) {
        walk(files, path.resolve(name), entries);
      }
    } else {
      entries.put(path.toString(), m.type() + " " + mode + " sha256:" + sha256(files.read(path)));
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
