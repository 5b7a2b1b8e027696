package dev.noneops.ports.systemd;

/**
 * systemd refused a call. {@link Kind} classifies the D-Bus error so callers can react to
 * "no such unit" or "access denied" without parsing messages.
 */
public class SystemdException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The class of D-Bus error. */
  public enum Kind {
    /** {@code org.freedesktop.systemd1.NoSuchUnit}. */
    NO_SUCH_UNIT,
    /** {@code org.freedesktop.DBus.Error.AccessDenied} or an interactive-authorization refusal. */
    ACCESS_DENIED,
    /** The bus could not be reached, or the connection broke. */
    UNREACHABLE,
    /** Any other error systemd returned. */
    OTHER
  }

  private final Kind kind;
  private final String unit;

  public SystemdException(Kind kind, String unit, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.unit = unit;
  }

  public SystemdException(Kind kind, String unit, String message) {
    this(kind, unit, message, null);
  }

  public Kind kind() {
    return kind;
  }

  /** The unit the call was about; empty for manager-wide calls. */
  public String unit() {
    return unit == null ? "" : unit;
  }
}
