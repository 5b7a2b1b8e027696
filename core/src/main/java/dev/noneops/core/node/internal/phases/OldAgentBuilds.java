package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.internal.files.OwnedEntry;
import dev.noneops.core.node.internal.files.SharedFileWriter;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Removes the agent builds a bootstrap installed earlier and no longer needs, from the agent's
 * home: every build but the ones kept (the current and the previous). Only what the ownership
 * record says this node created is removed: an entry of the home the node did not create as a
 * directory is not a build of its, and stays; a directory of a build that holds anything the node
 * did not write there stays, with that in it. A crash part-way leaves a partial old build, never
 * a kept one, which the next bootstrap removes.
 */
public final class OldAgentBuilds {
  private final HostFiles files;
  private final SharedFileWriter writer;

  public OldAgentBuilds(HostFiles files, SharedFileWriter writer) {
    this.files = files;
    this.writer = writer;
  }

  /** Removes the builds in {@code home} whose names are not in {@code keep}. */
  public void prune(Path home, Set<String> keep) throws IOException {
    for (String name : files.list(home)) {
      Path build = home.resolve(name);
      boolean created = writer
          .record()
          .get(build)
          .filter(entry -> entry.kind() == OwnedEntry.Kind.DIRECTORY)
          .isPresent();
      if (created && !keep.contains(name)) {
        remove(build);
      }
    }
  }

  /** The build's entries the node wrote, deepest first; a directory with anything else stays. */
  private void remove(Path build) throws IOException {
    List<OwnedEntry> entries = writer.record().entries().stream()
        .filter(entry -> entry.path().startsWith(build))
        .sorted(Comparator.comparingInt((OwnedEntry entry) -> entry.path().getNameCount())
            .reversed())
        .toList();
    for (OwnedEntry entry : entries) {
      if (entry.kind() == OwnedEntry.Kind.DIRECTORY
          && files.exists(entry.path())
          && !files.list(entry.path()).isEmpty()) {
        continue;
      }
      writer.removeOwned(entry.path());
    }
  }
}
