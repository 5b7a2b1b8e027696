package dev.noneops.metrics;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;

/**
 * Writes the agent's metrics as {@value PrometheusAgentMetrics#TEXTFILE_NAME} into node_exporter's
 * textfile collector directory, the way the port's files are written (a temp file beside it,
 * fsync, rename, fsync of the directory), so the collector never reads half a file: whenever
 * they change, and at least once every {@link #REFRESH} (the daemon's last tick alone does not
 * count as a change, so an idle daemon writes once a minute, not at every tick).
 *
 * <p>Root writes only into a directory that root alone can change: the directory itself a real
 * directory (not a symbolic link) owned by root and writable by no other user nor by a group other
 * than root's, and no directory above it writable by every user or by such a group (unless it is
 * sticky, as {@code /tmp}). Debian's {@code /var/lib/prometheus/node-exporter} is so (root's,
 * 0755, under {@code /var/lib/prometheus}, which belongs to node_exporter's own service account).
 * A directory that is not so is refused with one log line (it is checked again at each write, and
 * the line repeats only when the reason changes); a missing one (no node_exporter on the host)
 * is said once, at info, and nothing is written.
 */
public final class TextfileExporter implements Consumer<PrometheusAgentMetrics> {
  /** How old the file may get while nothing changes. */
  public static final Duration REFRESH = Duration.ofMinutes(1);

  private static final String TICK = "noneops_daemon_last_tick_timestamp_seconds";
  private static final int FILE_MODE = 0644;

  private final HostFiles files;
  private final Path directory;
  private final Supplier<Instant> clock;
  private final Logger log;
  private final Set<String> said = new HashSet<>();
  private String written = "";
  private Instant writtenAt = Instant.MIN;

  public TextfileExporter(HostFiles files, Path directory, Supplier<Instant> clock, Logger log) {
    this.files = Objects.requireNonNull(files, "files");
    this.directory = Objects.requireNonNull(directory, "directory");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The file written. */
  public Path file() {
    return directory.resolve(PrometheusAgentMetrics.TEXTFILE_NAME);
  }

  @Override
  public synchronized void accept(PrometheusAgentMetrics metrics) {
    String text;
    try {
      text = metrics.text();
    } catch (RuntimeException e) {
      once("render", "cannot render the agent's metrics: " + e.getMessage(), false);
      return;
    }
    Instant now = clock.get();
    String content = withoutTick(text);
    if (content.equals(written) && now.isBefore(writtenAt.plus(REFRESH))) {
      return;
    }
    try {
      Optional<String> refusal = refusal();
      if (refusal.isPresent()) {
        once(refusal.get(), refusal.get(), !refusal.get().startsWith("no "));
        return;
      }
      files.writeDurably(file(), text.getBytes(StandardCharsets.UTF_8), FILE_MODE);
      written = content;
      writtenAt = now;
      said.clear();
    } catch (IOException | RuntimeException e) {
      once(
          "write " + e.getMessage(),
          "cannot write the agent's metrics to " + file() + ": " + e.getMessage(),
          true);
    }
  }

  /** Why the directory is not one to write into; empty when it is. */
  private Optional<String> refusal() throws IOException {
    Optional<FileMeta> dir = files.lstat(directory);
    if (dir.isEmpty()) {
      return Optional.of("no textfile collector directory " + directory
          + " (node_exporter's); the agent's metrics are not written there");
    }
    if (!dir.get().isDirectory()) {
      return Optional.of("not writing the agent's metrics: " + directory + " is not a directory");
    }
    for (Path p = directory; p != null; p = p.getParent()) {
      Optional<FileMeta> meta = files.lstat(p);
      if (meta.isEmpty()) {
        continue;
      }
      FileMeta m = meta.get();
      boolean self = p.equals(directory);
      boolean sticky = (m.mode() & 01000) != 0;
      boolean othersWrite = (m.mode() & 0002) != 0 && (self || !sticky);
      boolean groupWrite = (m.mode() & 0020) != 0 && m.gid() != 0 && (self || !sticky);
      if ((self && m.uid() != 0) || othersWrite || groupWrite) {
        return Optional.of("not writing the agent's metrics into " + directory + ": " + p
            + " (owner uid " + m.uid() + ", gid " + m.gid() + ", mode "
            + String.format("%04o", m.mode() & 07777) + ") can be changed by a user or group"
            + " other than root; make it root's alone (e.g. root:root 0755) or name another"
            + " directory with --metrics-textfile-dir");
      }
    }
    return Optional.empty();
  }

  private void once(String key, String line, boolean error) {
    if (said.add(key)) {
      if (error) {
        log.error("{}", line);
      } else {
        log.info("{}", line);
      }
    }
  }

  private static String withoutTick(String text) {
    return text.lines().filter(l -> !l.startsWith(TICK + " ")).collect(Collectors.joining("\n"));
  }
}
