package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.internal.files.PreexistingCniEntries;
import dev.noneops.core.node.internal.files.PreexistingLinks;
import java.io.IOException;

/**
 * Records which entries of the CNI configuration and state directories, and which network links,
 * are there before the node's stack first runs (once: a provision run again keeps the first
 * record), so a reset removes only what the node's pods added. The links are recorded first and
 * only while the CNI entries are not: a node provisioned before links were recorded may have run
 * its stack, so the links it has now are no record of the host's.
 */
public final class RecordHostEntriesPhase {
  private final PhaseContext parts;

  public RecordHostEntriesPhase(PhaseContext parts) {
    this.parts = parts;
  }

  public void run() throws IOException {
    PreexistingCniEntries cni =
        new PreexistingCniEntries(parts.ports().files(), parts.paths(), parts.layout());
    if (!parts.ports().files().exists(cni.path())) {
      new PreexistingLinks(parts.ports().files(), parts.ports().network(), parts.layout())
          .recordIfAbsent();
    }
    cni.recordIfAbsent();
  }
}
