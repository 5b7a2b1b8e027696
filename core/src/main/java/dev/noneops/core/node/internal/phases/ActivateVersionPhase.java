package dev.noneops.core.node.internal.phases;

import dev.noneops.core.node.NodeException;
import dev.noneops.ports.files.FileMeta;
import java.io.IOException;
import java.util.Optional;

/**
 * Points {@code current} at a version (a relative link, flipped durably) unless it already does,
 * refusing a version without a valid manifest: an incomplete version is never activated.
 */
public final class ActivateVersionPhase {
  private final PhaseContext node;

  public ActivateVersionPhase(PhaseContext node) {
    this.node = node;
  }

  public void run(String version) throws IOException {
    requireComplete(version);
    Optional<FileMeta> current = node.ports().files().lstat(node.layout().current());
    if (current.isPresent()
        && current.get().isSymlink()
        && node.ports().files().readLink(node.layout().current()).equals(version)) {
      return;
    }
    node.ports().files().symlinkDurably(node.layout().current(), version);
  }

  /** Refuses {@code version} when its manifest is missing or invalid. */
  public void requireComplete(String version) throws IOException {
    if (node.verifier().manifest(version).isEmpty()) {
      throw new NodeException("refusing to activate version " + version + ": "
          + node.layout().versionDir(version) + " has no valid manifest");
    }
  }
}
