package dev.noneops.core.node.internal.teardown;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.process.ProcessInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What of the layout running shims of other runtimes need: a shim of Docker's {@code moby}
 * namespace on the node's containerd runs the {@code containerd-shim-runc-v2} containerd found
 * beside itself, in one of the node's versions, and that version's runc; a containerd started
 * later resolves the same binaries to take the shim's task over (and so for a shim of another
 * containerd that runs the node's binary). A shim needs the version its
 * executable ({@code /proc/<pid>/exe}) or its {@code argv[0]} lies in, and a link directly in the
 * layout ({@code current}) that leads there. Only directories of the layout and links to them
 * count; nothing outside the layout is looked at, and no link is followed out of it.
 */
public final class LayoutUsedByForeignShims {
  private static final String DELETED_SUFFIX = " (deleted)";

  private final HostFiles files;
  private final Path root;

  public LayoutUsedByForeignShims(HostFiles files, Path layoutRoot) {
    this.files = Objects.requireNonNull(files, "files");
    this.root = Objects.requireNonNull(layoutRoot, "layoutRoot").normalize();
  }

  /**
   * Each version directory that {@code shims} run from, with the shims running from it, in the
   * order found; and each link directly in the layout that leads to one of them.
   */
  public Used of(List<ProcessInfo> shims) throws IOException {
    Map<Path, List<ProcessInfo>> versions = new LinkedHashMap<>();
    for (ProcessInfo shim : shims) {
      Set<Path> own = new LinkedHashSet<>();
      for (String candidate : paths(shim)) {
        version(candidate).ifPresent(own::add);
      }
      for (Path version : own) {
        versions.computeIfAbsent(version, v -> new ArrayList<>()).add(shim);
      }
    }
    Map<Path, Path> links = new LinkedHashMap<>();
    if (!versions.isEmpty()) {
      for (String name : files.list(root)) {
        Path entry = root.resolve(name);
        linkTarget(entry)
            .filter(versions::containsKey)
            .ifPresent(target -> links.put(entry, target));
      }
    }
    return new Used(versions, links, false);
  }

  /** The absolute paths a shim runs from: its executable and an absolute {@code argv[0]}. */
  private static List<String> paths(ProcessInfo shim) {
    List<String> paths = new ArrayList<>();
    shim.exe()
        .map(exe -> exe.endsWith(DELETED_SUFFIX)
            ? exe.substring(0, exe.length() - DELETED_SUFFIX.length())
            : exe)
        .ifPresent(paths::add);
    if (!shim.argv().isEmpty()) {
      paths.add(shim.argv().get(0));
    }
    return paths;
  }

  /** The version directory below the layout that {@code path} lies in, through a link there. */
  private Optional<Path> version(String path) throws IOException {
    if (!path.startsWith("/")) {
      return Optional.empty();
    }
    Path normal = Path.of(path).normalize();
    if (!normal.startsWith(root) || normal.getNameCount() <= root.getNameCount() + 1) {
      return Optional.empty();
    }
    Path entry = root.resolve(normal.getName(root.getNameCount()));
    Optional<FileMeta> meta = files.lstat(entry);
    if (meta.isEmpty()) {
      return Optional.empty();
    }
    if (meta.get().isDirectory()) {
      return Optional.of(entry);
    }
    return linkTarget(entry);
  }

  /** The directory of the layout that the link {@code entry} leads to, when it is one. */
  private Optional<Path> linkTarget(Path entry) throws IOException {
    Optional<FileMeta> meta = files.lstat(entry);
    if (meta.isEmpty() || !meta.get().isSymlink()) {
      return Optional.empty();
    }
    Path target = root.resolve(files.readLink(entry)).normalize();
    if (!root.equals(target.getParent())) {
      return Optional.empty();
    }
    return files.lstat(target).filter(FileMeta::isDirectory).map(m -> target);
  }

  /**
   * @param versions each version directory in use, with the shims running from it
   * @param links each link directly in the layout leading to one of them, with its target
   * @param keepsAll whether every entry of the layout is kept (what is in use is unknown)
   */
  public record Used(
      Map<Path, List<ProcessInfo>> versions, Map<Path, Path> links, boolean keepsAll) {
    public Used {
      versions = Collections.unmodifiableMap(new LinkedHashMap<>(versions));
      links = Collections.unmodifiableMap(new LinkedHashMap<>(links));
    }

    /** Nothing of the layout in use. */
    public static Used nothing() {
      return new Used(Map.of(), Map.of(), false);
    }

    /** Every entry of the layout kept, for when what is in use could not be told. */
    public static Used everything() {
      return new Used(Map.of(), Map.of(), true);
    }

    /** Whether {@code entry} of the layout is kept. */
    public boolean keeps(Path entry) {
      return keepsAll || versions.containsKey(entry) || links.containsKey(entry);
    }
  }
}
