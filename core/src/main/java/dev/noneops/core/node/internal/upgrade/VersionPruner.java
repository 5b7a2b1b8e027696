package dev.noneops.core.node.internal.upgrade;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.core.node.internal.state.UpgradeJournal;
import dev.noneops.core.node.internal.state.UpgradeRecord;
import dev.noneops.core.node.internal.version.TreeRemover;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Removes every installed version except the active one, but never a version something still
 * uses: the active version, the two versions of an upgrade in flight, a version a running process
 * executes from or maps ({@code /proc/<pid>/exe}, {@code maps}, argv), a version a containerd
 * task still points at ({@code shim-binary-path} and the runtime options in the task directories
 * under {@code io.containerd.runtime.v2.task}, because containerd re-executes old shims after a
 * restart until the pods are recreated), a version a unit file or a shared symlink references.
 * Each kept version is reported with every reason.
 *
 * <p>A version is first durably renamed to its tombstone, {@value #REMOVING_PREFIX}{@code
 * <version>} in the layout (a name no version can have, so from that instant it is no installed
 * version and never activated), then removed through the {@link TreeRemover}, which never
 * follows a symlink nor crosses a mount. A removal a crash interrupted is therefore never a half
 * version: it is a tombstone, which {@link #finishRemovals()} (run by every prune and by
 * recovery) removes.
 */
public final class VersionPruner {
  /** The containerd runtime v2 task state directory name, below its run and state directories. */
  public static final String TASK_DIR = "io.containerd.runtime.v2.task";

  /** The files of a task directory that name binaries the task runs with. */
  public static final List<String> TASK_FILES =
      List.of("shim-binary-path", "options.json", "bootstrap.json");

  /** The name prefix of a version being removed: {@code .removing-<version>} in the layout root. */
  public static final String REMOVING_PREFIX = Layout.REMOVING_PREFIX;

  private static final long MAX_TASK_FILE = 1 << 20;
  private static final String DELETED = " (deleted)";

  private final HostFiles files;
  private final ProcessTable processes;
  private final Layout layout;
  private final HostPaths hostPaths;
  private final TreeRemover remover;
  private final UpgradeJournal journal;

  public VersionPruner(
      HostFiles files,
      ProcessTable processes,
      Layout layout,
      HostPaths hostPaths,
      TreeRemover remover) {
    this.files = Objects.requireNonNull(files, "files");
    this.processes = Objects.requireNonNull(processes, "processes");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.hostPaths = Objects.requireNonNull(hostPaths, "hostPaths");
    this.remover = Objects.requireNonNull(remover, "remover");
    this.journal = new UpgradeJournal(files, layout);
  }

  /** The installed version directories (safe names only, never {@code current} or bookkeeping). */
  public List<String> installedVersions() throws IOException {
    List<String> out = new ArrayList<>();
    if (!files.exists(layout.root())) {
      return out;
    }
    for (String name : files.list(layout.root())) {
      if (!VersionNames.isSafe(name)) {
        continue;
      }
      if (files.typeOf(layout.root().resolve(name)).equals(Optional.of(FileType.DIRECTORY))) {
        out.add(name);
      }
    }
    return out;
  }

  /** The versions whose removal started and has not finished (their tombstones are in the layout), in name order. */
  public List<String> versionsBeingRemoved() throws IOException {
    return versionsBeingRemoved(files, layout);
  }

  public static List<String> versionsBeingRemoved(HostFiles files, Layout layout)
      throws IOException {
    List<String> out = new ArrayList<>();
    if (!files.exists(layout.root())) {
      return out;
    }
    for (String name : files.list(layout.root())) {
      if (name.startsWith(REMOVING_PREFIX)
          && VersionNames.isSafe(name.substring(REMOVING_PREFIX.length()))
          && files.typeOf(layout.root().resolve(name)).equals(Optional.of(FileType.DIRECTORY))) {
        out.add(name.substring(REMOVING_PREFIX.length()));
      }
    }
    out.sort(null);
    return out;
  }

  /** Where {@code version} is while it is being removed. */
  public Path tombstone(String version) {
    return tombstone(layout, version);
  }

  public static Path tombstone(Layout layout, String version) {
    return layout.root().resolve(REMOVING_PREFIX + VersionNames.requireSafe(version));
  }

  /**
   * Finishes every removal a crash interrupted: removes each tombstone's tree.
   *
   * @return what was left of each tombstone that could not be removed entirely (a mount inside it), by version
   */
  public Map<String, List<String>> finishRemovals() throws IOException {
    Map<String, List<String>> left = new LinkedHashMap<>();
    for (String version : versionsBeingRemoved()) {
      List<String> kept = remover.removeTree(tombstone(version));
      if (!kept.isEmpty()) {
        left.put(version, kept);
      }
    }
    return left;
  }

  /** Which installed versions must be kept, and why, without removing anything. */
  public Map<String, List<String>> references() throws IOException {
    String active = activeVersion();
    Map<String, Set<String>> reasons = new TreeMap<>();
    add(reasons, active, "active version (" + layout.current() + " -> " + active + ")");
    Optional<UpgradeRecord> inFlight = journal.read();
    if (inFlight.isPresent()) {
      add(
          reasons,
          inFlight.get().previousVersion(),
          "previous version of the upgrade in flight (" + journal.path() + ")");
      add(
          reasons,
          inFlight.get().targetVersion(),
          "target version of the upgrade in flight (" + journal.path() + ")");
    }
    for (ProcessInfo p : processes.list(Set.of(ProcessDetail.MAPPED_FILES))) {
      if (p.exe().isPresent()) {
        String exe = stripDeleted(p.exe().get());
        versionOf(exe, active)
            .ifPresent(v -> add(reasons, v, "process " + p.pid() + " executes " + exe));
      }
      if (!p.argv().isEmpty() && p.argv().get(0).startsWith("/")) {
        String argv0 = p.argv().get(0);
        versionOf(argv0, active)
            .ifPresent(v -> add(reasons, v, "process " + p.pid() + " was started as " + argv0));
      }
      for (String mapped : p.mappedFiles()) {
        String file = stripDeleted(mapped);
        versionOf(file, active)
            .ifPresent(v -> add(reasons, v, "process " + p.pid() + " maps " + file));
      }
    }
    for (Path stateRoot : List.of(
        hostPaths.containerdRunDir().resolve(TASK_DIR),
        hostPaths.containerdStateDir().resolve(TASK_DIR))) {
      scanTasks(stateRoot, active, reasons);
    }
    scanUnits(active, reasons);
    scanCniLinks(active, reasons);
    Map<String, List<String>> out = new LinkedHashMap<>();
    reasons.forEach((v, r) -> out.put(v, List.copyOf(r)));
    return out;
  }

  /**
   * Finishes the removals a crash interrupted, then removes every installed version nothing
   * references, and reports what it removed, kept and why.
   */
  public PruneOutcome prune() throws IOException {
    Map<String, List<String>> keep = references();
    List<String> removed = new ArrayList<>();
    Map<String, List<String>> kept = new LinkedHashMap<>();
    List<String> interrupted = versionsBeingRemoved();
    Map<String, List<String>> leftBehind = new LinkedHashMap<>(finishRemovals());
    interrupted.stream().filter(v -> !leftBehind.containsKey(v)).forEach(removed::add);
    for (String version : installedVersions()) {
      List<String> why = keep.get(version);
      if (why != null) {
        kept.put(version, List.copyOf(why));
        continue;
      }
      if (leftBehind.containsKey(version)) {
        continue;
      }
      Path tombstone = tombstone(version);
      files.renameDurably(layout.versionDir(version), tombstone);
      List<String> left = remover.removeTree(tombstone);
      if (left.isEmpty()) {
        removed.add(version);
      } else {
        leftBehind.put(version, left);
      }
    }
    return new PruneOutcome(removed, kept, leftBehind);
  }

  private String activeVersion() throws IOException {
    Path current = layout.current();
    Optional<FileMeta> meta = files.lstat(current);
    if (meta.isEmpty() || !meta.get().isSymlink()) {
      throw new IllegalStateException(
          "no active version: " + current + " is not a symlink; refusing to prune any version");
    }
    String target = files.readLink(current);
    Path name = Path.of(target).getFileName();
    if (name == null || !VersionNames.isSafe(name.toString())) {
      throw new IllegalStateException(current + " points at '" + target
          + "', not a version directory; refusing to prune any version");
    }
    return name.toString();
  }

  private void scanTasks(Path stateRoot, String active, Map<String, Set<String>> reasons)
      throws IOException {
    if (!isDirectory(stateRoot)) {
      return;
    }
    for (String namespace : files.list(stateRoot)) {
      Path nsDir = stateRoot.resolve(namespace);
      if (!isDirectory(nsDir)) {
        continue;
      }
      for (String id : files.list(nsDir)) {
        Path taskDir = nsDir.resolve(id);
        if (!isDirectory(taskDir)) {
          continue;
        }
        for (String name : TASK_FILES) {
          Path file = taskDir.resolve(name);
          for (String v : versionsIn(readSmallFile(file), active)) {
            add(
                reasons,
                v,
                "containerd task " + namespace + "/" + id + " points at it (" + file + ")");
          }
        }
      }
    }
  }

  private void scanUnits(String active, Map<String, Set<String>> reasons) throws IOException {
    List<Path> unitFiles = new ArrayList<>();
    for (String unit : HostPaths.STACK_UNITS) {
      unitFiles.add(hostPaths.unit(unit));
    }
    Path dropIns = hostPaths.kubeletDropInDir();
    if (isDirectory(dropIns)) {
      for (String name : files.list(dropIns)) {
        unitFiles.add(dropIns.resolve(name));
      }
    }
    for (Path unit : unitFiles) {
      for (String v : versionsIn(readSmallFile(unit), active)) {
        add(reasons, v, "unit file " + unit + " references it");
      }
    }
  }

  private void scanCniLinks(String active, Map<String, Set<String>> reasons) throws IOException {
    Path cniBin = hostPaths.cniBinDir();
    if (!isDirectory(cniBin)) {
      return;
    }
    for (String name : files.list(cniBin)) {
      Path link = cniBin.resolve(name);
      Optional<FileMeta> meta = files.lstat(link);
      if (meta.isEmpty() || !meta.get().isSymlink()) {
        continue;
      }
      String target = cniBin.resolve(files.readLink(link)).normalize().toString();
      versionOf(target, active)
          .ifPresent(v -> add(reasons, v, "shared link " + link + " points into it"));
    }
  }

  private String readSmallFile(Path file) throws IOException {
    Optional<FileMeta> meta = files.lstat(file);
    if (meta.isEmpty() || !meta.get().isRegularFile() || meta.get().size() > MAX_TASK_FILE) {
      return "";
    }
    return new String(files.read(file), StandardCharsets.UTF_8);
  }

  private boolean isDirectory(Path dir) throws IOException {
    Optional<FileMeta> meta = files.lstat(dir);
    return meta.isPresent() && meta.get().isDirectory();
  }

  /** Every version named by a layout path anywhere in {@code text}. */
  public Set<String> versionsIn(String text, String active) {
    Set<String> out = new LinkedHashSet<>();
    String prefix = layout.root().toString() + "/";
    int at = text.indexOf(prefix);
    while (at >= 0) {
      int start = at + prefix.length();
      int end = start;
      while (end < text.length() && isNameChar(text.charAt(end))) {
        end++;
      }
      versionOfComponent(text.substring(start, end), active).ifPresent(out::add);
      at = text.indexOf(prefix, end);
    }
    return out;
  }

  /** The version a path lies in, resolving {@code current/...} to the active version. */
  public Optional<String> versionOf(String path, String active) {
    String prefix = layout.root().toString() + "/";
    String normalized = Path.of(path).normalize().toString();
    if (!normalized.startsWith(prefix)) {
      return Optional.empty();
    }
    String rest = normalized.substring(prefix.length());
    int slash = rest.indexOf('/');
    return versionOfComponent(slash < 0 ? rest : rest.substring(0, slash), active);
  }

  private static Optional<String> versionOfComponent(String component, String active) {
    if (component.equals(Layout.CURRENT)) {
      return Optional.of(active);
    }
    return VersionNames.isSafe(component) ? Optional.of(component) : Optional.empty();
  }

  private static boolean isNameChar(char c) {
    return (c >= '0' && c <= '9')
        || (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || c == '.'
        || c == '_'
        || c == '+'
        || c == '-';
  }

  private static String stripDeleted(String path) {
    return path.endsWith(DELETED) ? path.substring(0, path.length() - DELETED.length()) : path;
  }

  private static void add(Map<String, Set<String>> reasons, String version, String reason) {
    reasons.computeIfAbsent(version, v -> new LinkedHashSet<>()).add(reason);
  }
}
