package dev.noneops.daemon.internal;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the node was cordoned before the repave under way began, kept on the host beside the
 * agent's state ({@code repave-cordon}) from before the drain cordons the node until the repave
 * ends: an agent killed mid-repave knows after its restart whether the cordon it finds is its own,
 * to undo, or the operator's, to keep (on the Node kubelet registers again too).
 */
public final class CordonBeforeRepave {
  private static final String CORDONED = "cordoned\n";
  private static final String SCHEDULABLE = "schedulable\n";

  private final HostFiles files;
  private final Path path;

  public CordonBeforeRepave(HostFiles files, HostPaths paths) {
    this.files = files;
    this.path = paths.agentState().resolveSibling("repave-cordon");
  }

  /** What was recorded, empty when no repave is under way or the record is not one of ours. */
  public Optional<Boolean> read() throws IOException {
    if (!files.exists(path)) {
      return Optional.empty();
    }
    String text = new String(files.read(path), StandardCharsets.UTF_8);
    return text.equals(CORDONED)
        ? Optional.of(true)
        : text.equals(SCHEDULABLE) ? Optional.of(false) : Optional.empty();
  }

  /** Records, durably, whether the node was cordoned before the repave. */
  public void write(boolean cordoned) throws IOException {
    if (path.getParent() != null && !files.exists(path.getParent())) {
      files.createDirectories(path.getParent(), 0750);
    }
    files.writeDurably(path, cordoned ? CORDONED : SCHEDULABLE, 0644);
  }

  /** The repave ended: nothing to remember. */
  public void clear() throws IOException {
    if (files.exists(path)) {
      files.delete(path);
    }
  }
}
