package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;
import java.util.Objects;

/** An upgrade was refused before it changed anything, for a {@link Reason} the message explains. */
public class UpgradeRefusedException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  /** Why the upgrade was refused. */
  public enum Reason {
    /** An earlier upgrade is still in flight or was interrupted: recover or commit it first. */
    UPGRADE_IN_FLIGHT,
    /** The node has no active version to upgrade from (provision it first). */
    NO_ACTIVE_VERSION,
    /** This upgrade was rolled back before; retrying it needs an explicit force. */
    ROLLED_BACK_BEFORE,
    /** The rollback could not be proven possible offline (the previous version or its configuration is damaged). */
    ROLLBACK_NOT_POSSIBLE,
    /**
     * The target's kubelet breaks the version skew policy against the API server (newer than it,
     * or more than three minor versions older); overridden by {@link ClusterCheck#ignoreVersionSkew()}.
     */
    VERSION_SKEW
  }

  private final Reason reason;

  public UpgradeRefusedException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public UpgradeRefusedException(Reason reason, String message) {
    this(reason, message, null);
  }

  public Reason reason() {
    return reason;
  }
}
