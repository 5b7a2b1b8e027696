package dev.noneops.core.node.internal.state;

import dev.noneops.core.layout.VersionNames;
import java.time.Instant;
import java.util.Objects;

/**
 * An upgrade that was rolled back: its target version and configuration digest, when, and why.
 *
 * @param targetVersion the version the upgrade tried to switch to
 * @param configDigest the digest of the configuration it tried to apply
 * @param rolledBackAt when the rollback was decided
 * @param reason the failure that caused it, in one line
 */
public record RolledBackUpgrade(
    String targetVersion, String configDigest, Instant rolledBackAt, String reason) {
  public RolledBackUpgrade {
    VersionNames.requireSafe(targetVersion);
    Objects.requireNonNull(configDigest, "configDigest");
    Objects.requireNonNull(rolledBackAt, "rolledBackAt");
    Objects.requireNonNull(reason, "reason");
  }

  /** Whether this is the same upgrade: same target version and same configuration. */
  public boolean sameUpgrade(String version, String digest) {
    return targetVersion.equals(version) && configDigest.equals(digest);
  }
}
