package dev.noneops.core.node;

import dev.noneops.core.NoneopsException;

/**
 * A version could not be installed: which version, which artifact or path, and why. A checksum
 * mismatch is {@link Reason#CHECKSUM_MISMATCH}; nothing of the version is activated then.
 */
public final class InstallException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  /** Why the install failed. */
  public enum Reason {
    /** An artifact's content does not match its expected sha256. */
    CHECKSUM_MISMATCH,
    /** A published checksum could not be fetched or read. */
    CHECKSUM_UNAVAILABLE,
    /** A download failed. */
    DOWNLOAD,
    /** An archive was unsafe or malformed. */
    ARCHIVE,
    /** An installed version does not match its manifest and cannot be repaired here. */
    CORRUPT,
    /** A file operation failed. */
    FILES
  }

  private final String version;
  private final Reason reason;

  public InstallException(String version, Reason reason, String message, Throwable cause) {
    super("install version " + version + ": " + message, cause);
    this.version = version;
    this.reason = reason;
  }

  public String version() {
    return version;
  }

  public Reason reason() {
    return reason;
  }
}
