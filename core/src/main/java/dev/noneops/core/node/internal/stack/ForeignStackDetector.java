package dev.noneops.core.node.internal.stack;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.ForeignStackException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.UnitStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a kubelet or containerd that is not this node's, without changing anything: a unit file
 * at our unit path without the {@link HostPaths#UNIT_MARKER}; a unit systemd has loaded from
 * another file, or that is active from another file; or a binary on a standard path that is
 * not a link into the layout.
 */
public final class ForeignStackDetector {
  /** The stacks a none node must not install over. */
  public static final List<String> UNITS = HostPaths.STACK_UNITS.stream()
      .filter(u -> !u.equals(HostPaths.LOCALDNS_UNIT))
      .toList();

  public static final List<String> BINARIES = List.of("containerd", "kubelet");
  public static final List<String> BINARY_DIRS =
      List.of("/usr/bin", "/usr/local/bin", "/usr/sbin", "/usr/local/sbin", "/bin", "/sbin");

  private final HostFiles files;
  private final Systemd systemd;
  private final HostPaths paths;
  private final Layout layout;

  public ForeignStackDetector(HostFiles files, Systemd systemd, HostPaths paths, Layout layout) {
    this.files = files;
    this.systemd = systemd;
    this.paths = paths;
    this.layout = layout;
  }

  /** Every foreign unit or binary found; empty when the host is free of them. */
  public List<String> findings() throws IOException {
    List<String> findings = new ArrayList<>();
    for (String unit : UNITS) {
      Path ours = paths.unit(unit);
      Optional<FileMeta> meta = files.lstat(ours);
      if (meta.isPresent() && !isOurUnit(ours, meta.get())) {
        findings.add("unit file " + ours + " is not managed by this node (no marker line)");
      }
      UnitStatus status = systemd.status(unit);
      boolean loadedElsewhere = status.load() != LoadState.NOT_FOUND
          && !status.fragmentPath().isEmpty()
          && !Path.of(status.fragmentPath()).equals(ours);
      if (loadedElsewhere) {
        findings.add(unit + " is " + (status.isActive() ? "active" : "installed") + " from "
            + status.fragmentPath());
      } else if (status.isActive() && meta.isEmpty()) {
        findings.add(unit + " is active but this node has no unit file for it");
      }
    }
    for (String binary : BINARIES) {
      for (String dir : BINARY_DIRS) {
        Optional<FileMeta> dirMeta = files.lstat(paths.host(dir));
        if (dirMeta.isEmpty() || dirMeta.get().isSymlink()) {
          continue;
        }
        Path path = paths.host(dir + "/" + binary);
        Optional<FileMeta> meta = files.lstat(path);
        if (meta.isPresent() && !pointsIntoLayout(path, meta.get())) {
          findings.add("binary " + path + " is not owned by " + layout.root());
        }
      }
    }
    return findings;
  }

  /** Throws {@link ForeignStackException} listing every finding, if any. */
  public void requireNone() throws IOException {
    List<String> findings = findings();
    if (!findings.isEmpty()) {
      throw new ForeignStackException(findings);
    }
  }

  private boolean isOurUnit(Path unit, FileMeta meta) throws IOException {
    return meta.isRegularFile() && startsWithMarker(files, unit);
  }

  /** Whether the regular file at {@code unit} is the node's: its first line is the marker. */
  public static boolean isNodesUnitFile(HostFiles files, Path unit) throws IOException {
    Optional<FileMeta> meta = files.lstat(unit);
    return meta.isPresent() && meta.get().isRegularFile() && startsWithMarker(files, unit);
  }

  private static boolean startsWithMarker(HostFiles files, Path unit) throws IOException {
    String content = new String(files.read(unit), StandardCharsets.UTF_8);
    return content.startsWith(HostPaths.UNIT_MARKER + "\n");
  }

  private boolean pointsIntoLayout(Path path, FileMeta meta) throws IOException {
    if (!meta.isSymlink()) {
      return false;
    }
    String target = files.readLink(path);
    Path parent = path.getParent();
    Path resolved = (parent == null ? Path.of(target) : parent.resolve(target)).normalize();
    return resolved.startsWith(layout.root());
  }
}
