package dev.noneops.core.node.internal.state;

import dev.noneops.core.layout.VersionNames;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

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
 * @param owner the process that ran the upgrade, which may release the node until it commits;
 *     empty when unknown (a journal written before it was recorded)
 */
public record UpgradeRecord(
    String previousVersion,
    String targetVersion,
    String configDigest,
    Instant startedAt,
    Optional<LocalDnsInterface> targetLocalDns,
    Optional<Owner> owner) {

  public UpgradeRecord {
    VersionNames.requireSafe(previousVersion);
    VersionNames.requireSafe(targetVersion);
    Objects.requireNonNull(configDigest, "configDigest");
    if (configDigest.isBlank()) {
      throw new IllegalArgumentException("the upgrade's config digest must not be blank");
    }
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(targetLocalDns, "targetLocalDns");
    Objects.requireNonNull(owner, "owner");
  }

  /** A record whose owner is unknown. */
  public UpgradeRecord(
      String previousVersion,
      String targetVersion,
      String configDigest,
      Instant startedAt,
      Optional<LocalDnsInterface> targetLocalDns) {
    this(previousVersion, targetVersion, configDigest, startedAt, targetLocalDns, Optional.empty());
  }

  /** A record whose target's LocalDNS interface is unknown. */
  public UpgradeRecord(
      String previousVersion, String targetVersion, String configDigest, Instant startedAt) {
    this(
        previousVersion,
        targetVersion,
        configDigest,
        startedAt,
        Optional.empty(),
        Optional.empty());
  }

  /** Whether the upgrade changes binaries, not only configuration. */
  public boolean switchesVersion() {
    return !previousVersion.equals(targetVersion);
  }

  /**
   * The LocalDNS interface a configuration sets up: a dummy link of this name carrying this address.
   * The upgrade journal records the target's, so that a rollback at recovery, which knows only the
   * applied configuration, can remove the target's interface when it has another name.
   *
   * @param name the interface name (a Linux interface name: 1 to 15 of {@code [A-Za-z0-9_.-]})
   * @param address the address it carries (without prefix length)
   */
  public record LocalDnsInterface(String name, String address) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

    public LocalDnsInterface {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(address, "address");
      if (!isInterfaceName(name)) {
        throw new IllegalArgumentException("not a Linux interface name: '" + name + "'");
      }
      if (address.isBlank()) {
        throw new IllegalArgumentException(
            "the address of LocalDNS interface " + name + " is blank");
      }
    }

    /** Whether {@code name} is a name Linux accepts for an interface. */
    public static boolean isInterfaceName(String name) {
      return name != null
          && NAME.matcher(name).matches()
          && !name.equals(".")
          && !name.equals("..");
    }
  }

  /**
   * The process that ran an upgrade: it may release the node between the upgrade and its commit
   * (to persist the applied configuration), and until it is gone its upgrade is in progress, not
   * interrupted. A process is the same one only with the same pid and start time in the same boot.
   *
   * @param pid its process id
   * @param startTime its start time, in clock ticks after boot
   * @param bootId the boot it ran in
   */
  public record Owner(long pid, long startTime, String bootId) {
    public Owner {
      if (pid <= 0) {
        throw new IllegalArgumentException("the owner's pid must be positive: " + pid);
      }
      if (startTime < 0) {
        throw new IllegalArgumentException(
            "the owner's start time must not be negative: " + startTime);
      }
      Objects.requireNonNull(bootId, "bootId");
      if (bootId.isBlank()) {
        throw new IllegalArgumentException("the owner's boot id must not be blank");
      }
    }

    @Override
    public String toString() {
      return "pid " + pid + " (started at tick " + startTime + " of boot " + bootId + ")";
    }
  }
}
