package dev.noneops.core.node.internal.teardown;

import dev.noneops.core.node.TeardownAction;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The agent's metrics file in node_exporter's textfile directory, which the node shares with
 * other collectors: it is the agent's when it is root's regular file in the Prometheus text format
 * with the agent's {@code noneops_} metrics first. Anything else of that name is another's and is
 * left alone; a stale file of the agent's would have node_exporter report a removed node forever.
 */
public final class AgentMetricsFile {
  private static final String[] OURS = {"# HELP noneops_", "# TYPE noneops_"};

  private final HostFiles files;
  private final Path path;

  public AgentMetricsFile(HostFiles files, Path path) {
    this.files = files;
    this.path = path;
  }

  public Path path() {
    return path;
  }

  /** Whether {@link #path()} holds the agent's metrics now. */
  public boolean present() throws IOException {
    Optional<FileMeta> meta = files.lstat(path);
    if (meta.isEmpty() || !meta.get().isRegularFile() || meta.get().uid() != 0) {
      return false;
    }
    String text = new String(files.read(path), StandardCharsets.UTF_8);
    for (String start : OURS) {
      if (text.startsWith(start)) {
        return true;
      }
    }
    return false;
  }

  /** Removes the agent's metrics file when it is there; another's file is left alone. */
  void remove(ReportBuilder report) {
    try {
      if (present()) {
        files.removeDurably(path);
        report.removed(
            TeardownAction.CONFIG_FILE_REMOVED,
            path,
            "the agent's metrics for node_exporter, written by the agent");
      }
    } catch (IOException e) {
      report.failed(path, "remove the agent's metrics for node_exporter", e);
    }
  }
}
