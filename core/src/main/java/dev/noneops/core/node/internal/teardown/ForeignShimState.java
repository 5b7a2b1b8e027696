package dev.noneops.core.node.internal.teardown;

import com.google.common.hash.Hashing;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.process.ProcessInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What shims of other runtimes keep below this node's containerd run directory ({@code
 * /run/containerd}), which containerd 1.6 to 2.0 share between every containerd on a host
 * whatever its own state directory: the shim's socket, {@code s/<sha256 of address/namespace/id>};
 * runc's state of its container, {@code runc/<namespace>/<id>} (the shim's default runc root);
 * and the directory of its container's standard I/O fifos that {@code ctr} made, {@code
 * fifo/<n>/<id>-std{in,out,err}}; and, for a shim of the containerd whose state directory this
 * is (Docker's on the node's containerd, say), its bundle {@code
 * io.containerd.runtime.v2.task/<namespace>/<id>}, where its container's root filesystem is
 * mounted. A teardown that removed them would leave the other runtime
 * unable to reach its running container (runc answers "container does not exist"), so they are
 * kept while the shim lives.
 */
public final class ForeignShimState {
  /** Where a containerd whose state directory is the run directory keeps its shims' bundles. */
  private static final String TASKS = "io.containerd.runtime.v2.task";

  private static final List<String> FIFOS = List.of("-stdin", "-stdout", "-stderr");

  private final HostFiles files;
  private final Path runDir;

  public ForeignShimState(HostFiles files, Path runDir) {
    this.files = Objects.requireNonNull(files, "files");
    this.runDir = Objects.requireNonNull(runDir, "runDir");
  }

  /** The entries of {@code shims} below the run directory, the directories on the way included. */
  public RemovalExclusions of(List<ProcessInfo> shims) throws IOException {
    Set<Path> entries = new HashSet<>();
    Set<Path> trees = new HashSet<>();
    Set<String> ids = new HashSet<>();
    for (ProcessInfo shim : shims) {
      Optional<String> address = ShimIdentity.flag(shim.argv(), "address")
          .map(a -> a.startsWith("unix://") ? a.substring("unix://".length()) : a);
      Optional<String> namespace = ShimIdentity.flag(shim.argv(), "namespace");
      Optional<String> id = ShimIdentity.flag(shim.argv(), "id");
      if (namespace.isEmpty()
          || id.isEmpty()
          || !safeName(namespace.get())
          || !safeName(id.get())) {
        continue;
      }
      ids.add(id.get());
      Path bundles = runDir.resolve(TASKS).resolve(namespace.get());
      if (isDirectory(bundles.resolve(id.get()))) {
        // only a shim of the containerd that keeps this run directory has its bundle here
        entries.add(bundles.getParent());
        entries.add(bundles);
        trees.add(bundles.resolve(id.get()));
      }
      Path runc = runDir.resolve("runc").resolve(namespace.get());
      entries.add(runc.getParent());
      entries.add(runc);
      trees.add(runc.resolve(id.get()));
      if (address.isPresent()) {
        String joined =
            Path.of(address.get(), namespace.get(), id.get()).normalize().toString();
        entries.add(runDir.resolve("s"));
        trees.add(runDir
            .resolve("s")
            .resolve(Hashing.sha256().hashString(joined, StandardCharsets.UTF_8).toString()));
      }
    }
    Path fifo = runDir.resolve("fifo");
    if (!ids.isEmpty() && isDirectory(fifo)) {
      for (String name : files.list(fifo)) {
        Path dir = fifo.resolve(name);
        if (isDirectory(dir) && holdsFifosOf(dir, ids)) {
          entries.add(fifo);
          trees.add(dir);
        }
      }
    }
    return new RemovalExclusions(entries, trees);
  }

  private boolean holdsFifosOf(Path dir, Set<String> ids) throws IOException {
    for (String name : files.list(dir)) {
      for (String suffix : FIFOS) {
        if (name.endsWith(suffix)
            && ids.contains(name.substring(0, name.length() - suffix.length()))) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean isDirectory(Path path) throws IOException {
    return files.lstat(path).map(FileMeta::isDirectory).orElse(false);
  }

  /** A namespace or id that names one path segment (containerd allows no other). */
  private static boolean safeName(String name) {
    return !name.isEmpty() && !name.contains("/") && !name.equals(".") && !name.equals("..");
  }
}
