package dev.noneops.core.node.internal.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;

/**
 * The shared paths the node disowned during an operation: what the ownership record held as
 * disowned when it began, so that at its end the paths disowned since are named once, in the
 * operation's result and in the log.
 */
public final class DisownedSince {
  private final OwnershipStore ownership;
  private final Logger log;
  private final Set<Path> before;

  private DisownedSince(OwnershipStore ownership, Logger log, Set<Path> before) {
    this.ownership = ownership;
    this.log = log;
    this.before = before;
  }

  /** Remembers what is disowned now. */
  public static DisownedSince now(OwnershipStore ownership, Logger log) throws IOException {
    Set<Path> paths = new TreeSet<>();
    ownership.disowned().forEach(d -> paths.add(d.path()));
    return new DisownedSince(ownership, log, paths);
  }

  /** The paths disowned since {@link #now}, each said once in the log too. */
  public List<Path> newlyDisowned() throws IOException {
    List<Path> added = new ArrayList<>();
    for (OwnershipStore.Disowned d : ownership.disowned()) {
      if (!before.contains(d.path())) {
        added.add(d.path());
        log.atWarn()
            .addKeyValue("path", d.path())
            .addKeyValue("found", d.found())
            .log("a " + d.found() + " replaced the node's link; the node no longer owns it and"
                + " leaves it as it is");
      }
    }
    return added;
  }
}
