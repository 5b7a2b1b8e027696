package dev.noneops.core.node;

import dev.noneops.core.node.internal.state.UpgradeRecord;
import java.time.Instant;
import java.util.Objects;

/**
 * An upgrade as the node's journal held it: the version it left, the version it went to, and when
 * it began. {@link Node#commit()} returns the one it ended; {@link RecoveryResult} the one it
 * finished or rolled back.
 *
 * @param previousVersion the version that was active before the upgrade
 * @param targetVersion the version the upgrade switched to
 * @param startedAt when the upgrade wrote its journal
 */
public record JournaledUpgrade(String previousVersion, String targetVersion, Instant startedAt) {
  public JournaledUpgrade {
    Objects.requireNonNull(previousVersion, "previousVersion");
    Objects.requireNonNull(targetVersion, "targetVersion");
    Objects.requireNonNull(startedAt, "startedAt");
  }

  static JournaledUpgrade of(UpgradeRecord record) {
    return new JournaledUpgrade(
        record.previousVersion(), record.targetVersion(), record.startedAt());
  }

  /** Whether the upgrade switched to another version (an apply of a new configuration does not). */
  public boolean switchesVersion() {
    return !previousVersion.equals(targetVersion);
  }
}
