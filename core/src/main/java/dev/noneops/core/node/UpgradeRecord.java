package dev.noneops.core.node;

import dev.noneops.core.layout.VersionNames;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the upgrade journal records before anything changes: the version the node ran, the
 * version it is switching to, the digest of the configuration being applied, and what the target
 * sets up on the host beyond files (its LocalDNS interface). Recovery
 * treats the upgrade as finished only when the applied configuration has this digest and
 * {@code current} names the target; otherwise it rolls back to {@code previousVersion}.
 *
 * @param previousVersion the version {@code current} named when the upgrade began
 * @param targetVersion the version the upgrade switches to (equal to the previous one for a
 *     configuration-only upgrade)
 * @param configDigest the digest of the configuration the upgrade applies
 * @param startedAt when the upgrade began
 * @param targetLocalDns the LocalDNS interface the target sets up; empty when unknown (a journal
 *     written before it was recorded)
 */
public record UpgradeRecord(
    String previousVersion,
    String targetVersion,
    String configDigest,
    Instant startedAt,
    Optional<LocalDnsInterface> targetLocalDns) {

  public UpgradeRecord {
    VersionNames.requireSafe(previousVersion);
    VersionNames.requireSafe(targetVersion);
    Objects.requireNonNull(configDigest, "configDigest");
    if (configDigest.isBlank()) {
      throw new IllegalArgumentException("the upgrade's config digest must not be blank");
    }
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(targetLocalDns, "targetLocalDns");
  }

  /** A record whose target's LocalDNS interface is unknown. */
  public UpgradeRecord(
      String previousVersion, String targetVersion, String configDigest, Instant startedAt) {
    this(previousVersion, targetVersion, configDigest, startedAt, Optional.empty());
  }

  /** Whether the upgrade changes binaries, not only configuration. */
  public boolean switchesVersion() {
    return !previousVersion.equals(targetVersion);
  }
}
