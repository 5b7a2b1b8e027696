package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.internal.files.CniEntriesBefore;
import dev.noneops.core.node.internal.files.LinksBefore;
import java.io.IOException;

/**
 * Records which entries of the CNI configuration and state directories, and which network links,
 * are there before the node's stack first runs (once: a provision run again keeps the first
 * record), so a reset removes only what the node's pods added. The links are recorded first and
 * only while the CNI entries are not: a node provisioned before links were recorded may have run
 * its stack, so the links it has now are no record of the host's.
 */
public final class RecordHostEntriesPhase {
  private final NodeParts parts;

  public RecordHostEntriesPhase(NodeParts parts) {
    this.parts = parts;
  }

  public void run() throws IOException {
    CniEntriesBefore cni =
        new CniEntriesBefore(parts.ports().files(), parts.paths(), parts.layout());
    if (!parts.ports().files().exists(cni.path())) {
      new LinksBefore(parts.ports().files(), parts.ports().network(), parts.layout())
          .recordIfAbsent();
    }
    cni.recordIfAbsent();
  }
}
