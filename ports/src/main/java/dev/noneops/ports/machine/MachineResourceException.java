package dev.noneops.ports.machine;

import java.io.IOException;
import java.util.Objects;

/**
 * The API server refused a call on a Machine, or could not be asked. {@link #kind()} classifies
 * the refusal so callers react to it without reading messages; the message carries the API
 * server's own words.
 */
public class MachineResourceException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The class of refusal. */
  public enum Kind {
    /**
     * The cluster has no {@code machines.unbounded-cloud.io/v1alpha3} resource type: the Machine
     * CRD is not installed (or not of this version). Nothing about any Machine can be done.
     */
    NO_MACHINE_RESOURCE_TYPE,
    /** There is no Machine of that name (for a call that needs one). */
    NOT_FOUND,
    /** The object kept changing under the call: every attempt met a {@code resourceVersion} conflict. */
    CONFLICT,
    /** The credentials were refused (401) or do not allow the call (403). */
    FORBIDDEN,
    /** The API server rejected the object (422 and other validation errors). */
    INVALID,
    /** The API server could not be reached, or the connection broke, or it timed out. */
    UNREACHABLE,
    /** Any other answer of the API server. */
    OTHER
  }

  private final Kind kind;
  private final String machine;

  public MachineResourceException(Kind kind, String machine, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.machine = machine == null ? "" : machine;
  }

  public MachineResourceException(Kind kind, String machine, String message) {
    this(kind, machine, message, null);
  }

  public Kind kind() {
    return kind;
  }

  /** The Machine the call was about; empty for a call about none. */
  public String machine() {
    return machine;
  }

  /** Whether {@code e} or one of its causes is a {@link MachineResourceException} of {@code kind}. */
  public static boolean hasKind(Throwable e, Kind kind) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MachineResourceException m && m.kind == kind) {
        return true;
      }
    }
    return false;
  }
}
