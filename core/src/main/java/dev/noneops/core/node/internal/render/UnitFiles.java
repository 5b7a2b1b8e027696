package dev.noneops.core.node.internal.render;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds the unit files and drop-ins in the systemd directory, telling this node's (first line is
 * {@link HostPaths#UNIT_MARKER}) from everyone else's. Only regular files count: a symlink is an
 * alias or an enablement link of somebody's unit and is never read through.
 */
public final class UnitFiles {
  /**
   * The units a node writes, stopped in this order: the agent first (it would act on the node),
   * then kubelet before what it depends on, the recovery gate last.
   */
  public static final List<String> NODE_UNITS = Stream.of(
          Stream.of(HostPaths.AGENT_UNIT),
          HostPaths.STACK_STOP_ORDER.stream(),
          Stream.of(HostPaths.RECOVERY_GATE_UNIT))
      .flatMap(s -> s)
      .toList();

  private static final Set<String> UNIT_SUFFIXES = Set.of(
      ".service",
      ".socket",
      ".timer",
      ".path",
      ".mount",
      ".automount",
      ".swap",
      ".target",
      ".slice",
      ".scope");
  private static final int MARKER_PEEK = 512;

  /** One unit file or drop-in. */
  public record UnitFile(Path path, String unit, boolean dropIn) {}

  /** The unit files and drop-ins this node wrote, and everyone else's. */
  public record Scan(List<UnitFile> owned, List<UnitFile> foreign) {
    public List<String> ownedUnits() {
      return owned.stream()
          .filter(f -> !f.dropIn())
          .map(UnitFile::unit)
          .sorted(STOP_ORDER)
          .toList();
    }

    public List<UnitFile> ownedDropIns() {
      return owned.stream().filter(UnitFile::dropIn).toList();
    }

    public List<UnitFile> ownedUnitFiles() {
      return owned.stream().filter(f -> !f.dropIn()).toList();
    }
  }

  public static final Comparator<String> STOP_ORDER = Comparator.<String>comparingInt(u -> {
        int i = NODE_UNITS.indexOf(u);
        return i < 0 ? NODE_UNITS.size() : i;
      })
      .thenComparing(Comparator.naturalOrder());

  private final HostFiles files;
  private final HostPaths paths;

  public UnitFiles(HostFiles files, HostPaths paths) {
    this.files = files;
    this.paths = paths;
  }

  public Scan scan() throws IOException {
    List<UnitFile> owned = new ArrayList<>();
    List<UnitFile> foreign = new ArrayList<>();
    Path dir = paths.systemdDir();
    for (String name : listOrEmpty(dir)) {
      Path path = dir.resolve(name);
      Optional<FileMeta> meta = files.lstat(path);
      if (meta.isEmpty()) {
        continue;
      }
      if (meta.get().isRegularFile() && isUnitName(name)) {
        classify(new UnitFile(path, name, false), owned, foreign);
      } else if (meta.get().isDirectory()
          && name.endsWith(".d")
          && isUnitName(name.substring(0, name.length() - 2))) {
        String unit = name.substring(0, name.length() - 2);
        for (String entry : listOrEmpty(path)) {
          Path dropIn = path.resolve(entry);
          Optional<FileMeta> m = files.lstat(dropIn);
          if (m.isPresent() && m.get().isRegularFile() && entry.endsWith(".conf")) {
            classify(new UnitFile(dropIn, unit, true), owned, foreign);
          }
        }
      }
    }
    return new Scan(List.copyOf(owned), List.copyOf(foreign));
  }

  /** Whether any unit or drop-in carries the marker. */
  public boolean anyOwned() throws IOException {
    return !scan().owned().isEmpty();
  }

  /** Whether the regular file at {@code path} starts with the marker line. */
  public boolean hasMarker(Path path) throws IOException {
    byte[] head;
    try (InputStream in = files.openRead(path)) {
      head = in.readNBytes(MARKER_PEEK);
    }
    String text = new String(head, StandardCharsets.UTF_8);
    int eol = text.indexOf('\n');
    String first = eol < 0 ? text : text.substring(0, eol);
    return first.strip().equals(HostPaths.UNIT_MARKER);
  }

  private void classify(UnitFile file, List<UnitFile> owned, List<UnitFile> foreign)
      throws IOException {
    boolean marked;
    try {
      marked = hasMarker(file.path());
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT) {
        return;
      }
      throw e;
    }
    (marked ? owned : foreign).add(file);
  }

  private List<String> listOrEmpty(Path dir) throws IOException {
    try {
      return files.list(dir);
    } catch (HostIOException e) {
      if (e.errno() == Errno.ENOENT || e.errno() == Errno.ENOTDIR) {
        return List.of();
      }
      throw e;
    }
  }

  public static boolean isUnitName(String name) {
    int dot = name.lastIndexOf('.');
    return dot > 0 && UNIT_SUFFIXES.contains(name.substring(dot));
  }
}
