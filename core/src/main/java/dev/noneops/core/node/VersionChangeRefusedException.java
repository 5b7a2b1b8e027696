package dev.noneops.core.node;

/**
 * {@link Node#apply()} was given a configuration that needs other binaries than the active
 * version's: that is an upgrade, and nothing was changed.
 */
public final class VersionChangeRefusedException extends NodeException {
  private static final long serialVersionUID = 1L;

  private final String wanted;
  private final String active;

  public VersionChangeRefusedException(String wanted, String active) {
    super(
        "this configuration needs version " + wanted + " but " + active
            + " is active: changing binaries is an upgrade, run 'noneops upgrade'; nothing was changed");
    this.wanted = wanted;
    this.active = active;
  }

  /** The version the configuration needs. */
  public String wanted() {
    return wanted;
  }

  /** The version that is active. */
  public String active() {
    return active;
  }
}
