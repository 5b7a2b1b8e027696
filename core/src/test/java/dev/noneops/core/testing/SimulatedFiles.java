package dev.noneops.core.testing;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.gate.Calls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The files of a {@link SimulatedHost} as core's unit tests look at them: the {@link HostFiles}
 * port core is given, the tree as one short line per path (with or without the entries' stamps),
 * and the content reads the port saw, from the host's call journal.
 */
public final class SimulatedFiles {
  private final SimulatedHost host = SimulatedHost.create();

  /** The port core is given. */
  public HostFiles port() {
    return host.ports().files();
  }

  /** The simulated file system behind the port, for what no system call does (corruption, clocks). */
  public SimFileSystem fs() {
    return host.fs();
  }

  /**
   * Every path and its entry: {@code dir 0755}, {@code link -> target} or {@code file 0644
   * content}, sorted by path.
   */
  public TreeMap<String, String> tree() {
    TreeMap<String, String> out = new TreeMap<>();
    try {
      for (SimFileSystem.WalkEntry e : host.fs().walk(Path.of("/"))) {
        out.put(
            e.path(),
            switch (e.type()) {
              case DIRECTORY -> "dir " + String.format("%04o", e.mode());
              case SYMLINK -> "link -> " + e.linkTarget();
              case REGULAR ->
                "file " + String.format("%04o", e.mode()) + " "
                    + new String(e.content(), StandardCharsets.UTF_8);
              default -> e.type().name().toLowerCase(Locale.ROOT);
            });
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Every path whose content was read through the port ({@code read} or {@code openRead}), in order. */
  public List<Path> contentReads() {
    return host.journal().calls(Calls.toAnyOf("files.read", "files.openRead")).stream()
        .map(call -> Path.of(call.args().get(0)))
        .toList();
  }

  /**
   * {@link #tree()} with every entry's inode, change and modification time: equal before and after
   * exactly when nothing was written, not even a file rewritten with the same bytes or a mode set
   * to what it was (every change moves a time on the simulated host's clock).
   */
  public TreeMap<String, String> stamps() {
    TreeMap<String, String> out = new TreeMap<>();
    try {
      for (var entry : tree().entrySet()) {
        FileMeta meta = host.fs().lstat(Path.of(entry.getKey())).orElseThrow();
        out.put(
            entry.getKey(),
            entry.getValue() + " ino=" + meta.inode() + " ctime=" + meta.ctimeNanos() + " mtime="
                + meta.mtimeNanos());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
